import { dollars } from "../../domain/number-text.js";
import { QuotabarError } from "../../domain/errors.js";
import { meter, percentOf } from "../../domain/meter.js";
import { advice } from "../../domain/remedy.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";
import { groupedNumber } from "../../domain/number-text.js";

/** One Cloud Monitoring `consumer_quota` series, reduced to its key and its highest point. */
export interface QuotaSeries {
  /** `metric.labels.quota_metric`, else `resource.labels.quota_id`. */
  quotaMetric: string;
  /** `metric.labels.limit_name`, else "". */
  limitName: string;
  /** `resource.labels.location`, else `global`. */
  location: string;
  value: number;
}

export interface CostFigure {
  /** USD; null when no model used has a price. */
  costUsd: number | null;
  tokens: number;
}

export interface CostReading {
  /** Any Vertex request in the logs, on any day. */
  found: boolean;
  complete: boolean;
  unreadableFiles: number;
  today: CostFigure;
  last30Days: CostFigure;
  month: CostFigure;
  /** Start of next month: when the month's cost starts again from zero. */
  monthEndsAt: string;
  /** The local calendar month's length, 1st to 1st: the cost meter's window. */
  monthMinutes: number;
  unpricedModels: string[];
}

export interface VertexReading {
  project: string;
  account: string | null;
  usage: QuotaSeries[];
  limits: QuotaSeries[];
  /** Null when the logs could not be read; `costProblem` says why. */
  cost: CostReading | null;
  costProblem: string | null;
  /** The entry's `costBudgetUsd`: a monthly budget for the cost meter. */
  budgetUsd: number | null;
  /** The entry had a `costBudgetUsd` that is not a positive number. */
  budgetIgnored: boolean;
}

export interface QuotaUse {
  quotaMetric: string;
  location: string;
  used: number;
  limit: number;
}

const keyOf = (s: Pick<QuotaSeries, "quotaMetric" | "limitName" | "location">) => JSON.stringify([s.quotaMetric, s.limitName, s.location]);

/** The highest value per (quota metric, limit name, location) over the series sharing it. */
function highest(series: readonly QuotaSeries[]): Map<string, QuotaSeries> {
  const byKey = new Map<string, QuotaSeries>();
  for (const s of series) {
    const seen = byKey.get(keyOf(s));
    if (!seen || s.value > seen.value) byKey.set(keyOf(s), s);
  }
  return byKey;
}

/**
 * The fullest quota: usage over the limit with the same key. A usage series without a limit name
 * (the usual case) takes the one limit of its quota metric and location, when there is just one.
 */
export function fullestQuota(usage: readonly QuotaSeries[], limits: readonly QuotaSeries[]): QuotaUse | null {
  const limitByKey = highest(limits);
  let best: QuotaUse | null = null;
  for (const use of highest(usage).values()) {
    let limit = limitByKey.get(keyOf(use));
    if (!limit && use.limitName === "") {
      const same = [...limitByKey.values()].filter((l) => l.quotaMetric === use.quotaMetric && l.location === use.location);
      if (same.length === 1) limit = same[0];
    }
    if (!limit || limit.value <= 0) continue;
    if (!best || use.value / limit.value > best.used / best.limit) {
      best = { quotaMetric: use.quotaMetric, location: use.location, used: use.value, limit: limit.value };
    }
  }
  return best;
}

const tokens = (n: number) => `${groupedNumber(n, 3)} tokens`;
const figureText = (f: CostFigure) => `${f.costUsd === null ? "no price" : dollars(f.costUsd)} · ${tokens(f.tokens)}`;

const NO_COST_DATA = "No Vertex AI cost data found in Claude logs. Ensure entries include Vertex metadata.";

/**
 * Primary: the fullest Vertex AI quota (usage of its limit, the peak of the last 24 hours).
 * Secondary: this month's Vertex cost from the Claude Code logs, against the budget when one is set.
 * Without quota series the cost takes the primary slot; without either there is nothing to show.
 */
export function vertexSnapshot(reading: VertexReading): Snapshot {
  const quota = fullestQuota(reading.usage, reading.limits);
  const cost = reading.cost?.found ? costMeter(reading.cost, reading.budgetUsd) : null;
  if (!quota && !cost) {
    throw new QuotabarError(
      "upstream",
      `Cloud Monitoring has no Vertex AI quota usage with a limit for project ${reading.project} in the last 24 hours.`,
      {
        remedies: [
          advice("Vertex AI reports quota usage once the project has used it; check that this is the project you use Vertex AI in."),
          advice("Choose the project with `gcloud config set project PROJECT_ID`."),
        ],
      },
    );
  }
  const details: Detail[] = [{ label: "Project", value: reading.project }];
  if (reading.account) details.push({ label: "Account", value: reading.account });
  if (!quota) details.push({ label: "Quota", value: "No Cloud Monitoring quota series in the last 24 hours" });
  details.push(...costDetails(reading));
  return { plan: null, primary: quota ? quotaMeter(quota) : cost, secondary: quota ? cost : null, tertiary: null, details };
}

function quotaMeter(quota: QuotaUse): Meter {
  const name = quota.quotaMetric.replace(/^aiplatform\.googleapis\.com\//, "");
  return meter("Quota", {
    usedPercent: percentOf(quota.used, quota.limit),
    used: quota.used,
    limit: quota.limit,
    unit: /token/i.test(name) ? "tokens" : /request/i.test(name) ? "requests" : null,
    note: `${name} in ${quota.location}, peak of the last 24 hours`,
  });
}

function costMeter(cost: CostReading, budget: number | null): Meter {
  const spent = Math.round((cost.month.costUsd ?? 0) * 100) / 100;
  const unpriced = cost.month.costUsd === null ? " (no price known for its models)" : "";
  return meter("Cost this month", {
    usedPercent: budget === null ? null : percentOf(spent, budget),
    used: spent,
    limit: budget,
    unit: "USD",
    resetsAt: cost.monthEndsAt,
    windowMinutes: cost.monthMinutes,
    note: budget === null ? `${dollars(spent)} this month from Claude Code logs, no monthly budget set${unpriced}` : null,
  });
}

function costDetails(reading: VertexReading): Detail[] {
  const { cost } = reading;
  if (!cost) return [{ label: "Cost", value: `Claude Code logs could not be read: ${reading.costProblem ?? "unknown error"}` }];
  if (!cost.found)
    return [{ label: "Cost", value: cost.complete ? NO_COST_DATA : "Still reading the Claude Code logs; the cost appears on a later run" }];
  const details: Detail[] = [
    { label: "Today", value: figureText(cost.today) },
    { label: "Last 30 days", value: figureText(cost.last30Days) },
  ];
  if (cost.unpricedModels.length > 0) details.push({ label: "No price for", value: cost.unpricedModels.join(", ") });
  if (!cost.complete)
    details.push({ label: "Cost", value: "Some Claude Code logs are still being read; the figures may grow on the next run" });
  if (cost.unreadableFiles > 0) details.push({ label: "Cost", value: `${cost.unreadableFiles} Claude Code log files could not be read` });
  if (reading.budgetIgnored) details.push({ label: "Budget", value: "The monthly cost budget is not a positive number and was ignored" });
  return details;
}
