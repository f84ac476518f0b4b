import { Flags } from "@oclif/core";
import type { Agent } from "../../providers/kit/cost/prices.js";
import type { Grouping } from "../../providers/kit/cost/report.js";
import type { CostDocument } from "../cost-document.js";
import { QuotabarCommand, UsageError } from "../base-command.js";
import { colorFlag } from "../shared-flags.js";
import { style } from "../render/style.js";
import { renderCostText } from "../render/cost-text.js";

export { renderCostText } from "../render/cost-text.js";

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
    const { runCost } = await import("../cost-document.js");
    const { cost, doc } = await runCost({
      agents: (flags.agent ?? []) as Agent[],
      since: flags.since?.trim() ?? null,
      until: flags.until?.trim() ?? null,
      by: flags.by as Grouping,
    });
    if (!this.jsonEnabled())
      this.log(renderCostText(cost, style(this.color(flags.color)), { breakdown: flags.breakdown, by: flags.by as Grouping }));
    return doc;
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
