import type { UsageDocument } from "../../../domain/usage-document.js";
import { barView, compactPart, LEVEL_COLORS, type BarOptions } from "./bar-view.js";

/**
 * Upstream text for polybar's tag parser: it starts a tag at every `%{` and has no escape for it
 * (`%%` is not a literal percent in polybar, unlike lemonbar), so a `%{` in upstream text is broken
 * apart with a space and can never become a tag (a colour, a click action).
 */
export function escapePolybar(text: string): string {
  return text.replace(/%\{/g, "% {");
}

/** polybar `custom/script`: one line, each provider in its level's colour (`%{F#rrggbb}…%{F-}`). */
export function renderPolybar(doc: UsageDocument, options: BarOptions): string {
  const view = barView(doc, options);
  if (view.providers.length === 0) return `%{F${LEVEL_COLORS.error}}no providers%{F-}`;
  return view.providers.map((p) => `%{F${LEVEL_COLORS[p.level]}}${escapePolybar(compactPart(p))}%{F-}`).join(" · ");
}
