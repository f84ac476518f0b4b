import { Flags } from "@oclif/core";
import type { CostFigures, CostReport } from "../../providers/vertexai/cost-report.js";
import type { VertexCost } from "../../providers/vertexai/cost.js";
import { QuotabarCommand, UsageError } from "../base-command.js";
import { colorFlag } from "../shared-flags.js";
import { style, type Style } from "../render/style.js";
import { groupedNumber } from "../../domain/number-text.js";

/** `quotabar cost --json`: the report, and where it comes from. */
export type CostDocument = { version: 1; generatedAt: string; currency: "USD"; pricesAsOf: string } & CostReport &
  Omit<VertexCost, "report">;

export default class Cost extends QuotabarCommand {
  static override summary = "Show the Vertex AI cost found in the Claude Code logs, by day and by model (no network).";
  static override description =
    "The numbers behind the Vertex AI cost meter: every Vertex request Claude Code logged on this machine (~/.claude/projects, ~/.config/claude/projects, or each CLAUDE_CONFIG_DIR entry), its tokens and its cost at list prices, per local day and per model. Lines already read are remembered in the cache dir, so a second run only reads what was written since.";
  static override enableJsonFlag = true;
  static override examples = ["<%= config.bin %> cost", "<%= config.bin %> cost --since 2026-03-01 --json"];
  static override flags = {
    since: Flags.string({
      description: "First day to count, as YYYY-MM-DD (default: 29 days ago, so 30 days with today)",
      helpValue: "<date>",
    }),
    color: colorFlag(),
  };

  async run(): Promise<CostDocument> {
    const { flags } = await this.parse(Cost);
    const { dayStart } = await import("../../providers/vertexai/days.js");
    if (flags.since !== undefined && dayStart(flags.since.trim()) === null) {
      throw new UsageError(`--since must be a date as YYYY-MM-DD, not "${flags.since}".`, "For example: quotabar cost --since 2026-03-01");
    }
    const { vertexCost } = await import("../../providers/vertexai/cost.js");
    const { PRICES_AS_OF } = await import("../../providers/vertexai/prices.js");
    const now = new Date();
    const cost = await vertexCost({ env: process.env, now, since: flags.since?.trim() ?? null });
    if (!this.jsonEnabled()) this.log(renderCostText(cost, style(this.color(flags.color)), PRICES_AS_OF));
    const { report, ...source } = cost;
    return { version: 1, generatedAt: now.toISOString(), currency: "USD", pricesAsOf: PRICES_AS_OF, ...report, ...source };
  }
}

// half a cent rounds up (toFixed alone rounds 0.015 down)
const usd = (value: number | null) => (value === null ? "no price" : `$${(Math.round(value * 100) / 100).toFixed(2)}`);

const COLUMNS = ["REQUESTS", "INPUT", "OUTPUT", "CACHE WRITE", "CACHE READ", "COST"] as const;

function cells(f: CostFigures): string[] {
  return [f.requests, f.inputTokens, f.outputTokens, f.cacheWriteTokens, f.cacheReadTokens]
    .map((n) => groupedNumber(n, 3))
    .concat(usd(f.costUsd));
}

/** The text view: per day (each model under it), per model, the total; or why there is nothing. */
export function renderCostText(cost: VertexCost, s: Style, pricesAsOf: string): string {
  const { report } = cost;
  const span = `${report.since} to ${report.until}`;
  if (!cost.found || report.days.length === 0) {
    const where = cost.logRoots.join(", ");
    return cost.found
      ? `No Vertex AI requests in the Claude Code logs from ${span}.`
      : `No Vertex AI cost data found in Claude logs (looked in ${where}). Ensure entries include Vertex metadata.`;
  }
  const rows: string[][] = [];
  for (const day of report.days) {
    rows.push([day.date, day.models.length === 1 ? (day.models[0]?.model ?? "") : "all models", ...cells(day)]);
    if (day.models.length > 1) for (const m of day.models) rows.push(["", m.model, ...cells(m)]);
  }
  const byModel = [...report.models.map((m) => [m.model, ...cells(m)]), ["TOTAL", ...cells(report.total)]];
  const lines = [
    s.bold(`Vertex AI cost from Claude Code logs, ${span} (local days, list prices as of ${pricesAsOf})`),
    "",
    ...table(["DATE", "MODEL", ...COLUMNS], rows, 2, s),
    "",
    ...table(["BY MODEL", ...COLUMNS], byModel, 1, s),
  ];
  if (report.unpricedModels.length > 0)
    lines.push("", s.dim(`No price is known for ${report.unpricedModels.join(", ")}: counted in tokens only.`));
  if (cost.unreadableFiles > 0) lines.push(s.yellow(`${cost.unreadableFiles} log files could not be read.`));
  return lines.join("\n");
}

/** Columns padded to their widest cell: the first `textColumns` left-aligned, numbers right-aligned. */
function table(header: readonly string[], rows: readonly string[][], textColumns: number, s: Style): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cellsOfRow: readonly string[]) =>
    cellsOfRow
      .map((cell, i) => (i < textColumns ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number)))
      .join("  ")
      .trimEnd();
  return [s.bold(line(header)), ...rows.map(line)];
}
