import type { UsageDocument } from "../../../domain/usage-document.js";
import { barView, compactPart, type BarLevel, type BarOptions } from "./bar-view.js";

/** tmux's colour for each level (names every tmux knows, whatever the terminal's palette). */
const TMUX_COLORS: Readonly<Record<BarLevel, string>> = {
  ok: "green",
  stale: "brightblack",
  error: "colour208",
  warning: "yellow",
  critical: "red",
};

/** A literal `#` in tmux's status line is `##`: upstream text never opens a `#[style]` or a `#(command)`. */
export function escapeTmux(text: string): string {
  return text.replace(/#/g, "##");
}

/** tmux `status-right '#(quotabar bar --format tmux)'`: one line, each provider in its level's colour. */
export function renderTmux(doc: UsageDocument, options: BarOptions): string {
  const view = barView(doc, options);
  if (view.providers.length === 0) return `#[fg=${TMUX_COLORS.error}]no providers#[default]`;
  return view.providers.map((p) => `#[fg=${TMUX_COLORS[p.level]}]${escapeTmux(compactPart(p))}#[default]`).join(" · ");
}
