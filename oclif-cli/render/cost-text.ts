import type { LogCost } from "../../providers/kit/cost/cost.js";
import type { CostFigures, Grouping } from "../../providers/kit/cost/report.js";
import type { Style } from "./style.js";
import { groupedNumber } from "../../domain/number-text.js";

// half a cent rounds up (toFixed alone rounds 0.015 down)
const usd = (value: number | null) => (value === null ? "no price" : `$${(Math.round(value * 100) / 100).toFixed(2)}`);

const COLUMNS = ["INPUT", "OUTPUT", "CACHE WRITE", "CACHE READ", "TOTAL TOKENS", "COST"] as const;

function cells(f: CostFigures): string[] {
  return [f.inputTokens, f.outputTokens, f.cacheWriteTokens, f.cacheReadTokens, f.totalTokens]
    .map((n) => groupedNumber(n, 3))
    .concat(usd(f.costUsd));
}

const HEADINGS: Record<Grouping, string> = { day: "DATE", week: "WEEK OF", month: "MONTH", session: "SESSION" };

/** The text view: a row per period (each model under it with --breakdown) and the total; or why there is nothing. */
export function renderCostText(cost: LogCost, s: Style, options: { breakdown?: boolean; by?: Grouping } = {}): string {
  const { report } = cost;
  const span = `${report.since} to ${report.until}`;
  const names = cost.agents.map((a) => (a === "claude" ? "Claude Code" : "Codex"));
  const who = names.join(" and ");
  if (!cost.found) return `No ${names.join(" or ")} requests found in the logs (looked in ${cost.logRoots.join(", ")}).`;
  if (report.days.length === 0) return `No ${names.join(" or ")} requests in the logs from ${span}.`;
  const rows: string[][] = [];
  for (const day of report.days) {
    rows.push([day.date, ...cells(day)]);
    if (options.breakdown) for (const m of day.models) rows.push([`  ${m.model} (${m.agent}, ${m.backend})`, ...cells(m)]);
  }
  rows.push(["TOTAL", ...cells(report.total)]);
  const lines = [
    s.bold(`${who} cost at API prices, ${span} (local days, prices as of ${cost.pricesAsOf})`),
    "",
    ...table([HEADINGS[options.by ?? "day"], ...COLUMNS], rows, s),
  ];
  if (report.unpricedModels.length > 0)
    lines.push("", s.dim(`No price is known for ${report.unpricedModels.map((m) => m.model).join(", ")}: counted in tokens only, at $0.`));
  if (cost.unreadableFiles > 0) lines.push(s.yellow(`${cost.unreadableFiles} log files or folders could not be read.`));
  if (cost.skippedLines > 0) lines.push(s.dim(`${cost.skippedLines} log lines could not be read and were skipped.`));
  return lines.join("\n");
}

/** Columns padded to their widest cell: the first left-aligned, numbers right-aligned. */
function table(header: readonly string[], rows: readonly string[][], s: Style): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cellsOfRow: readonly string[]) =>
    cellsOfRow
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number)))
      .join("  ")
      .trimEnd();
  return [s.bold(line(header)), ...rows.map(line)];
}
