import type { UsageDocument } from "../../../domain/usage-document.js";
import { barView, detailLines, type BarOptions } from "./bar-view.js";

/** Pango markup's own characters in upstream text (waybar's text and tooltip are Pango markup). */
export function escapePango(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * waybar's `return-type: json`: one line of JSON. `text` is the fullest meter ("zai 81%"), `alt` its
 * provider's id (for `format-icons`), `tooltip` every provider's meters, `class` the bar's level
 * (ok, stale, error, warning, critical: CSS classes), `percentage` an integer 0..100.
 */
export function renderWaybar(doc: UsageDocument, options: BarOptions): string {
  const view = barView(doc, options);
  return JSON.stringify({
    text: escapePango(view.headline?.text ?? (view.providers.length === 0 ? "no providers" : "quotabar")),
    alt: view.headline?.id ?? view.level,
    tooltip: detailLines(view).map(escapePango).join("\n"),
    class: view.level,
    percentage: view.percentage,
  });
}
