import { meter } from "../../domain/meter.js";
import { dollars } from "../../domain/number-text.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

/** A money block of the usage summary, in cents as cursor.com sends them (null: not sent, or no limit). */
export interface CursorMoney {
  enabled: boolean;
  used: number | null;
  limit: number | null;
}

/** `individualUsage.plan`: cents spent of the included amount, and the dashboard's percents (already 0–100, fractions kept). */
export interface CursorPlanUsage {
  used: number | null;
  limit: number | null;
  autoPercentUsed: number | null;
  apiPercentUsed: number | null;
  totalPercentUsed: number | null;
}

/** What `/api/usage-summary`, `/api/auth/me` and (on request plans) `/api/usage` said. */
export interface CursorReading {
  membershipType: string | null;
  billingCycleStart: string | null;
  billingCycleEnd: string | null;
  plan: CursorPlanUsage | null;
  /** The personal cap of an Enterprise or Team member, sent instead of `plan`. */
  overall: CursorMoney | null;
  onDemand: CursorMoney | null;
  teamOnDemand: CursorMoney | null;
  /** The shared pool of an Enterprise team. */
  pooled: CursorMoney | null;
  /** A legacy request-based plan: requests used of the allowance (`maxRequestUsage` > 0). */
  requests: { used: number; limit: number } | null;
  email: string | null;
}

/** `membershipType` as the dashboard names the plan. */
const PLANS: Record<string, string> = {
  free: "Free",
  hobby: "Hobby",
  free_trial: "Pro Trial",
  pro: "Pro",
  pro_student: "Pro",
  pro_plus: "Pro+",
  ultra: "Ultra",
  team: "Team",
  business: "Business",
  enterprise: "Enterprise",
  express: "Start",
};

/** The plan's name; one cursor.com names that is not known here is shown as sent. */
export function cursorPlan(membershipType: string | null): string | null {
  if (membershipType === null || membershipType.trim() === "") return null;
  return PLANS[membershipType.trim().toLowerCase()] ?? membershipType.trim();
}

const positive = (money: CursorMoney | null): money is CursorMoney & { limit: number } => (money?.limit ?? 0) > 0;

type Cents = { used: number | null; limit: number | null };
/** Dollars of a block with a limit above 0; null otherwise. */
const dollarsOf = (money: Cents | null) =>
  money && money.limit !== null && money.limit > 0 ? { used: (money.used ?? 0) / 100, limit: money.limit / 100 } : null;

/**
 * The dashboard's headline Total, the first that applies: `totalPercentUsed`; the average of the
 * Auto and API lanes; one lane alone; else the plan's, the personal cap's, then the team pool's
 * cents (whose dollars the meter then carries); else 0.
 */
function headline(reading: CursorReading): { percent: number; money: { used: number; limit: number } | null } {
  const plan = reading.plan;
  const auto = plan?.autoPercentUsed ?? null;
  const api = plan?.apiPercentUsed ?? null;
  if (plan && plan.totalPercentUsed !== null) return { percent: plan.totalPercentUsed, money: null };
  if (auto !== null && api !== null) return { percent: (auto + api) / 2, money: null };
  if (api !== null || auto !== null) return { percent: (api ?? auto) as number, money: null };
  for (const block of [plan, reading.overall, reading.pooled]) {
    const money = dollarsOf(block);
    if (money) return { percent: (money.used / money.limit) * 100, money };
  }
  return { percent: 0, money: null };
}

export const headlinePercent = (reading: CursorReading): number => headline(reading).percent;

/** The cycle's length in minutes, when both ends are known and in order. */
function cycleMinutes(reading: CursorReading): number | null {
  if (!reading.billingCycleStart || !reading.billingCycleEnd) return null;
  const ms = Date.parse(reading.billingCycleEnd) - Date.parse(reading.billingCycleStart);
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms / 60_000) : null;
}

const spent = (money: CursorMoney & { limit: number }) => `${dollars((money.used ?? 0) / 100)} of ${dollars(money.limit / 100)}`;

/**
 * The plan's included spend (when the Total is a percent of its own, the dollars are another
 * measure: 86 of 2,000 cents beside 0.44 %), on-demand spend (the personal budget, else the team's
 * with the user's own share) and the team pool, in dollars.
 */
function spendDetails(reading: CursorReading, totalInDollars: boolean): Detail[] {
  const details: Detail[] = [];
  const included = totalInDollars ? null : dollarsOf(reading.plan);
  if (included) details.push({ label: "Included usage", value: `${dollars(included.used)} of ${dollars(included.limit)}` });
  const personal = reading.onDemand;
  const team = reading.teamOnDemand;
  if (positive(personal)) details.push({ label: "On-demand", value: spent(personal) });
  else if (positive(team)) {
    details.push({ label: "Team on-demand", value: spent(team) });
    if ((personal?.used ?? 0) > 0) details.push({ label: "Your on-demand spend", value: dollars((personal?.used ?? 0) / 100) });
  } else if ((personal?.used ?? 0) > 0) details.push({ label: "On-demand", value: dollars((personal?.used ?? 0) / 100) });
  if (positive(reading.pooled)) details.push({ label: "Team pool", value: spent(reading.pooled) });
  return details;
}

/**
 * Total first (in dollars when it comes from the plan's, the cap's or the pool's cents), Auto + Composer second, API third,
 * each resetting at the cycle's end with the cycle as its window. A request-based plan shows its
 * requests used of the allowance alone.
 */
export function cursorSnapshot(reading: CursorReading): Snapshot {
  const cycle = { resetsAt: reading.billingCycleEnd, windowMinutes: cycleMinutes(reading) };
  const total = headline(reading);
  const account = reading.email ? [{ label: "Account", value: reading.email }] : [];
  const details = [...account, ...spendDetails(reading, total.money !== null && !reading.requests)];
  const plan = cursorPlan(reading.membershipType);
  if (reading.requests) {
    const { used, limit } = reading.requests;
    const primary = meter("Requests", { ...cycle, usedPercent: (used / limit) * 100, used, limit, unit: "requests" });
    return { plan, primary, secondary: null, tertiary: null, details };
  }
  const primary = meter("Total", { ...cycle, usedPercent: total.percent, ...(total.money ? { ...total.money, unit: "USD" } : {}) });
  const lane = (label: string, value: number | null | undefined): Meter | null =>
    value === null || value === undefined ? null : meter(label, { ...cycle, usedPercent: value });
  return {
    plan,
    primary,
    secondary: lane("Auto + Composer", reading.plan?.autoPercentUsed),
    tertiary: lane("API", reading.plan?.apiPercentUsed),
    details,
  };
}
