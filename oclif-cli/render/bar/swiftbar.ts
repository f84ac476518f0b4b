import type { UsageDocument } from "../../../domain/usage-document.js";
import { barView, LEVEL_COLORS, type BarLevel, type BarOptions } from "./bar-view.js";

/**
 * Upstream text for a SwiftBar / xbar line: `|` starts the line's parameters, so it becomes `¦`;
 * a line that begins with `-` would be a separator or a submenu item, so leading dashes become `‐`.
 */
export function escapeMenuText(text: string): string {
  return text.replace(/\|/g, "¦").replace(/^-+/, (dashes) => "\u2010".repeat(dashes.length));
}

const line = (text: string, level: BarLevel, href: string | null) =>
  `${escapeMenuText(text)} | color=${LEVEL_COLORS[level]}${href ? ` href=${href}` : ""}`;

/**
 * SwiftBar and xbar (macOS), the same plugin format: the title line (the fullest meter), `---`, then a
 * line per meter (and per problem) that opens the provider's dashboard, and a Refresh item.
 */
export function renderSwiftBar(doc: UsageDocument, options: BarOptions): string {
  const view = barView(doc, options);
  const lines = [line(view.headline?.text ?? (view.providers.length === 0 ? "no providers" : "quotabar"), view.level, null), "---"];
  for (const p of view.providers) {
    lines.push(line(p.title, p.level, p.dashboard));
    for (const m of p.meters) lines.push(line(`${p.name} ${m.text}`, m.level, p.dashboard));
    for (const problem of p.problems) lines.push(line(`${p.name} ${problem}`, p.level, p.dashboard));
  }
  if (view.providers.length === 0) lines.push("Set up a provider: quotabar providers");
  lines.push("---", "Refresh | refresh=true");
  return lines.join("\n");
}
