import { QuotabarError } from "../../domain/errors.js";
import { meter, percentOf } from "../../domain/meter.js";
import { dollars } from "../../domain/number-text.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

const SESSION_MINUTES = 300;
const WEEK_MINUTES = 10_080;

/** One window: percent used (0–100) and its reset (ISO), either may be unknown. */
export interface ClaudeWindow {
  usedPercent: number | null;
  resetsAt: string | null;
}

/** One entry of the structured `limits[]`: a model-scoped weekly limit has the model's name. */
export interface ClaudeLimit extends ClaudeWindow {
  kind: string;
  group: string;
  /** `scope.model.display_name` (or `id`), null for an unscoped limit. */
  model: string | null;
}

/** Pay-as-you-go extra usage (monthly credits), in major units of `currency`. */
export interface ClaudeExtraUsage {
  enabled: boolean;
  used: number;
  /** Null: no cap. */
  limit: number | null;
  usedPercent: number | null;
  currency: string;
}

/** The usage body (OAuth and claude.ai alike), or what the CLI's `/usage` panel showed, as windows. */
export interface ClaudeUsage {
  fiveHour: ClaudeWindow | null;
  sevenDay: ClaudeWindow | null;
  sonnet: ClaudeWindow | null;
  opus: ClaudeWindow | null;
  oauthApps: ClaudeWindow | null;
  routines: ClaudeWindow | null;
  limits: ClaudeLimit[];
  extraUsage: ClaudeExtraUsage | null;
}

/**
 * Cost worked out from Claude Code's own logs, in US dollars: today's, and the current 5-hour
 * window's. Not read here yet: the cost reader fills it in, and the policy shows it as details.
 */
export interface ClaudeCost {
  today: number | null;
  sessionWindow: number | null;
}

/** A usage with nothing in it yet, for a reader that fills it in as it finds windows. */
export const noUsage = (): ClaudeUsage => ({
  fiveHour: null,
  sevenDay: null,
  sonnet: null,
  opus: null,
  oauthApps: null,
  routines: null,
  limits: [],
  extraUsage: null,
});

export interface ClaudeReading {
  usage: ClaudeUsage;
  /** From the sign-in (subscriptionType, rateLimitTier), claude.ai's account, or the CLI. */
  plan: string | null;
  /** The signed-in account: it tells accounts apart. */
  email: string | null;
  organization: string | null;
  /** claude.ai's prepaid credits, in major units. */
  prepaid: { amount: number; currency: string } | null;
  cost?: ClaudeCost | null;
}

/**
 * The 5-hour session first (or the first weekly window, for an account without one), the weekly
 * window second, the per-model weekly limit third; the other scoped limits, daily routines, extra
 * usage, prepaid credits, the account and cost as details. An account with no window at all but a
 * spend limit shows that limit as its meter.
 */
export function claudeSnapshot(reading: ClaudeReading): Snapshot {
  const usage = reading.usage;
  const extra = usage.extraUsage?.enabled ? usage.extraUsage : null;
  const scoped = usage.limits.filter(isModelWeek);
  const modelSlot = usage.sonnet ? { label: "Sonnet", window: usage.sonnet } : usage.opus ? { label: "Opus", window: usage.opus } : null;
  const tertiaryLimit = modelSlot ? null : (scoped[0] ?? null);

  let primary: Meter | null = null;
  let secondary: Meter | null = null;
  if (usage.fiveHour?.usedPercent != null) {
    primary = windowMeter("Session", usage.fiveHour, SESSION_MINUTES);
    if (usage.sevenDay) secondary = windowMeter("Weekly", usage.sevenDay, WEEK_MINUTES);
  } else {
    const weekly = [usage.sevenDay, usage.oauthApps, usage.sonnet, usage.opus].find((w) => w?.usedPercent != null);
    if (weekly) primary = windowMeter("Weekly", weekly, WEEK_MINUTES);
    else if (extra && extra.limit !== null && extra.limit > 0) primary = spendLimit(extra);
  }
  if (!primary) {
    throw new QuotabarError("parse", "Claude's answer has no usage window and no spend limit", {
      remedies: [{ kind: "advice", text: "Open claude.ai/settings/usage to see whether this account has a usage limit." }],
    });
  }
  const tertiary = modelSlot
    ? // claude.ai sends the model week without its reset: it resets with the week (CodexBar's reading)
      windowMeter(
        modelSlot.label,
        { ...modelSlot.window, resetsAt: modelSlot.window.resetsAt ?? usage.sevenDay?.resetsAt ?? null },
        WEEK_MINUTES,
      )
    : tertiaryLimit
      ? windowMeter(`${tertiaryLimit.model} only`, tertiaryLimit, WEEK_MINUTES)
      : null;

  const details: Detail[] = [];
  for (const limit of scoped) {
    if (limit !== tertiaryLimit) details.push({ label: `${limit.model} only`, value: windowText(limit) });
  }
  if (usage.routines) details.push({ label: "Daily Routines", value: windowText(usage.routines) });
  if (extra && primary.label !== "Spend limit") details.push({ label: "Extra usage", value: extraText(extra) });
  if (reading.prepaid) details.push({ label: "Prepaid credits", value: money(reading.prepaid.amount, reading.prepaid.currency) });
  details.push(...costDetails(reading.cost ?? null));
  if (reading.email) details.push({ label: "Account", value: reading.email });
  if (reading.organization) details.push({ label: "Organization", value: reading.organization });
  return { plan: reading.plan, primary, secondary, tertiary, details };
}

/** The cost reader's figures (when wired in): today's and this 5-hour window's, in dollars. */
export function costDetails(cost: ClaudeCost | null): Detail[] {
  if (!cost) return [];
  const details: Detail[] = [];
  if (cost.today !== null) details.push({ label: "Cost today", value: dollars(cost.today) });
  if (cost.sessionWindow !== null) details.push({ label: "Cost this session", value: dollars(cost.sessionWindow) });
  return details;
}

/** A model-scoped weekly limit of `limits[]` (not "All models"). */
function isModelWeek(limit: ClaudeLimit): limit is ClaudeLimit & { model: string } {
  return (
    limit.group === "weekly" &&
    limit.kind === "weekly_scoped" &&
    limit.usedPercent !== null &&
    limit.model !== null &&
    !/^all models$/i.test(limit.model)
  );
}

function windowMeter(label: string, window: ClaudeWindow, windowMinutes: number): Meter {
  return meter(label, { usedPercent: window.usedPercent ?? 0, resetsAt: window.resetsAt, windowMinutes });
}

function spendLimit(extra: ClaudeExtraUsage): Meter {
  const limit = extra.limit ?? 0;
  return meter("Spend limit", {
    // used past the cap is possible (a late charge): the bar stops at full
    usedPercent: Math.min(100, extra.usedPercent ?? percentOf(extra.used, limit) ?? 0),
    used: extra.used,
    limit,
    unit: extra.currency,
    note: `${money(extra.used, extra.currency)} / ${money(limit, extra.currency)} this month`,
  });
}

function windowText(window: ClaudeWindow): string {
  const used = `${Math.round((window.usedPercent ?? 0) * 10) / 10}% used`;
  return window.resetsAt ? `${used}, resets ${window.resetsAt.slice(0, 16).replace("T", " ")} UTC` : used;
}

function extraText(extra: ClaudeExtraUsage): string {
  return extra.limit === null
    ? `${money(extra.used, extra.currency)} spent this month (no cap)`
    : `${money(extra.used, extra.currency)} of ${money(extra.limit, extra.currency)} this month`;
}

/** Dollars as `$7.63`; another currency as `7.63 EUR` (no ICU). */
export function money(amount: number, currency: string): string {
  return currency === "USD" ? dollars(amount) : `${dollars(amount).replace("$", "")} ${currency}`;
}

const PLANS: [RegExp, string][] = [
  [/max/, "Max"],
  [/enterprise/, "Enterprise"],
  [/team/, "Team"],
  [/pro/, "Pro"],
  [/free/, "Free"],
];

/**
 * `Max 20x`, `Pro`, `Team`: `subscriptionType` title-cased (else the first known word of
 * `rateLimitTier`), with the multiplier of `rateLimitTier` for Max; never prefixed "Claude".
 */
export function planOf(subscriptionType: string | null, rateLimitTier: string | null): string | null {
  const tier = rateLimitTier?.toLowerCase() ?? "";
  const type = subscriptionType?.trim().toLowerCase() ?? "";
  const name =
    type !== ""
      ? (PLANS.find(([word]) => word.test(type))?.[1] ?? titleCase(type))
      : (PLANS.find(([word]) => word.test(tier))?.[1] ?? null);
  if (name !== "Max") return name;
  const multiplier = /max[a-z_]*?_(\d{1,2})x\b/.exec(tier)?.[1];
  return multiplier ? `Max ${multiplier}x` : "Max";
}

function titleCase(text: string): string {
  return text
    .split(/[\s_-]+/)
    .filter((word) => word !== "")
    .map((word) => `${word[0]!.toUpperCase()}${word.slice(1)}`)
    .join(" ");
}
