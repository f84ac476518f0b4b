import type { UsageDocument } from "../../../domain/usage-document.js";
import { barView, compactPart, detailLines, type BarOptions } from "./bar-view.js";

/** Plain text, for applets that read a command's output: the one-line summary, then the detail. */
export function renderBarText(doc: UsageDocument, options: BarOptions): string {
  const view = barView(doc, options);
  const summary = view.providers.length === 0 ? "no providers" : view.providers.map(compactPart).join(" · ");
  return [summary, ...detailLines(view)].join("\n");
}
