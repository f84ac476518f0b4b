import { Flags } from "@oclif/core";
import type { LogCost } from "../../providers/kit/cost/cost.js";
import type { Agent } from "../../providers/kit/cost/prices.js";
import type { CostFigures, CostReport, Grouping } from "../../providers/kit/cost/report.js";
import { QuotabarCommand, UsageError } from "../base-command.js";
import { colorFlag } from "../shared-flags.js";
import { style, type Style } from "../render/style.js";
import { groupedNumber } from "../../domain/number-text.js";

/** `quotabar cost --json`: the report, and where it comes from. */
export type CostDocument = { version: 1; generatedAt: string; currency: "USD" } & CostReport & Omit<LogCost, "report">;

/** A cold scan that takes longer than this shows its progress on stderr (a terminal only). */
const PROGRESS_AFTER_MS = 1_000;

export default class Cost extends QuotabarCommand {
  static override summary = "Show what Claude Code and Codex would have cost at API prices, by day and by model (from their local logs).";
  static override description =
    "Every request Claude Code (~/.claude/projects, ~/.config/claude/projects, or each CLAUDE_CONFIG_DIR entry; Anthropic API, Vertex AI and Bedrock alike) and Codex ($CODEX_HOME/sessions and archived_sessions, default ~/.codex) logged on this machine, its tokens and its cost at list prices, per local day and per model. Lines already read are remembered in the cache dir, so a second run only reads what was written since. --update-prices fetches LiteLLM's price list into the cache dir (the only network use).";
  static override enableJsonFlag = true;
  static override examples = [
    "<%= config.bin %> cost",
    "<%= config.bin %> cost --agent codex --since 2026-03-01 --json",
    "<%= config.bin %> cost --by month --breakdown",
    "<%= config.bin %> cost --update-prices",
  ];
  static override flags = {
    agent: Flags.string({
      description: "Only this agent's logs (repeatable; default: both)",
      options: ["claude", "codex"],
      multiple: true,
    }),
    since: Flags.string({
      description: "First day to count, as YYYY-MM-DD (default: 29 days ago, so 30 days with today)",
      helpValue: "<date>",
    }),
    until: Flags.string({ description: "Last day to count, as YYYY-MM-DD (default: today)", helpValue: "<date>" }),
    by: Flags.string({
      description: "Rows per day, week (from Monday), month or session",
      options: ["day", "week", "month", "session"],
      default: "day",
    }),
    breakdown: Flags.boolean({ description: "Each model under its row" }),
    "update-prices": Flags.boolean({
      description: "Fetch LiteLLM's price list into the cache dir first (checked before it replaces the bundled prices)",
    }),
    color: colorFlag(),
  };

  async run(): Promise<CostDocument> {
    const { flags } = await this.parse(Cost);
    const { dayStart } = await import("../../providers/kit/cost/days.js");
    for (const [name, value] of [
      ["since", flags.since],
      ["until", flags.until],
    ] as const) {
      if (value !== undefined && dayStart(value.trim()) === null)
        throw new UsageError(`--${name} must be a date as YYYY-MM-DD, not "${value}".`, `For example: quotabar cost --${name} 2026-03-01`);
    }
    // on stderr, so --json keeps stdout the document alone
    if (flags["update-prices"]) process.stderr.write(`${await updatePrices()}\n`);
    const { logCost } = await import("../../providers/kit/cost/cost.js");
    const now = new Date();
    const started = Date.now();
    const progress = process.stderr.isTTY
      ? (done: number, total: number) => {
          if (Date.now() - started > PROGRESS_AFTER_MS) process.stderr.write(`\rReading logs: ${done} of ${total} files`);
        }
      : undefined;
    const cost = await logCost({
      env: process.env,
      now,
      agents: (flags.agent ?? []) as Agent[],
      since: flags.since?.trim() ?? null,
      until: flags.until?.trim() ?? null,
      by: flags.by as Grouping,
      ...(progress ? { onProgress: progress } : {}),
    });
    if (progress && Date.now() - started > PROGRESS_AFTER_MS) process.stderr.write("\r\u001b[K");
    if (!this.jsonEnabled())
      this.log(renderCostText(cost, style(this.color(flags.color)), { breakdown: flags.breakdown, by: flags.by as Grouping }));
    const { report, ...source } = cost;
    return { version: 1, generatedAt: now.toISOString(), currency: "USD", ...report, ...source };
  }
}

/** Fetches, checks and keeps LiteLLM's price list; says what happened (a refusal keeps the prices in force). */
async function updatePrices(): Promise<string> {
  const [{ LITELLM_PRICES_URL, priceListFromLiteLlm, keepPrices }, { lazyGotTransport }, { parseOriginMap }, { scopedHttp }] =
    await Promise.all([
      import("../../providers/kit/cost/price-list.js"),
      import("../../library/lazy-transport.js"),
      import("../../adapters/http/origin-map.js"),
      import("../../domain/scoped-http.js"),
    ]);
  const budgetMs = 30_000;
  const http = scopedHttp(lazyGotTransport(parseOriginMap(process.env.QUOTABAR_ORIGIN_MAP)), {
    service: "LiteLLM price list",
    signal: AbortSignal.timeout(budgetMs),
    deadline: Date.now() + budgetMs,
    budgetMs,
    secrets: [],
  });
  let body: string;
  try {
    body = (await http.request({ url: LITELLM_PRICES_URL, headers: { Accept: "application/json" } })).body;
  } catch (error) {
    return `Prices not updated (${(error as Error).message}): the prices in use stay.`;
  }
  const outcome = priceListFromLiteLlm(body, new Date().toISOString().slice(0, 10));
  if ("problem" in outcome) return `Prices not updated: ${http.excerpt(outcome.problem, { maxChars: 200 })}. The prices in use stay.`;
  await keepPrices(process.env, outcome.table);
  const kept = outcome.kept.length > 0 ? ` (${outcome.kept.join(", ")} not in the list: bundled prices kept for them)` : "";
  return `Prices updated from LiteLLM's list, as of ${outcome.table.asOf}${kept}.`;
}

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
