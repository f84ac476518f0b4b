import type { UsageDocument } from "../../../domain/usage-document.js";
import { barView, compactPart, LEVEL_COLORS, type BarOptions } from "./bar-view.js";

/** i3blocks marks a block urgent when its command exits with this. */
export const I3BLOCKS_URGENT_EXIT = 33;

/**
 * i3blocks (and i3status-rust's custom block): three lines, the full text (every provider), the
 * short text (the fullest meter), the colour. Plain text: a block without `markup=pango`. Upstream
 * text is already on one line (bar-view's clean), so it can never add a line of its own.
 */
export function renderI3blocks(doc: UsageDocument, options: BarOptions): string {
  const view = barView(doc, options);
  const full = view.providers.length === 0 ? "no providers" : view.providers.map(compactPart).join(" · ");
  const short = view.headline?.text ?? full;
  return [full, short, LEVEL_COLORS[view.level]].join("\n");
}
