import { meter, percentOf } from "../../domain/meter.js";
import { groupedNumber } from "../../domain/number-text.js";
import type { Detail, Snapshot } from "../../domain/usage-document.js";
import { codeWeekMeter, totalUsageDetail, type KimiMembership } from "./policy-membership.js";
import { rateLimitMeter, type KimiRateLimit } from "./policy-rate-limit.js";
import { hasCounters, usedOf, WEEK_MINUTES, type KimiQuota } from "./policy-quota.js";

export type { KimiMembership } from "./policy-membership.js";
export type { KimiRateLimit, KimiWindow } from "./policy-rate-limit.js";
export type { KimiQuota } from "./policy-quota.js";

export interface KimiTier {
  name: "Andante" | "Moderato" | "Allegretto";
  priceCny: number;
  weeklyRequests: number;
}

/** The membership tiers Kimi sells, with their weekly request quotas. */
export const KIMI_TIERS: readonly KimiTier[] = [
  { name: "Andante", priceCny: 49, weeklyRequests: 1024 },
  { name: "Moderato", priceCny: 99, weeklyRequests: 2048 },
  { name: "Allegretto", priceCny: 199, weeklyRequests: 7168 },
];

export const kimiTierByName = (name: unknown): KimiTier | null =>
  typeof name === "string" ? (KIMI_TIERS.find((t) => t.name.toLowerCase() === name.trim().toLowerCase()) ?? null) : null;

const tierByWeeklyLimit = (limit: number | null): KimiTier | null =>
  limit === null ? null : (KIMI_TIERS.find((t) => t.weeklyRequests === limit) ?? null);

export interface KimiReading {
  /**
   * The weekly request quota: GetUsages' `usages[FEATURE_CODING].detail`, or the Code API's `usage`
   * (or its week-long root-level limit); null for an answer whose only quotas are shorter windows.
   */
  weekly: KimiQuota | null;
  /** `limits[0]`: the rate-limit window, when the response has one. */
  rateLimit: KimiRateLimit | null;
  /** A second window, read only from an answer without a weekly quota. */
  nextRateLimit?: KimiRateLimit | null;
  /** The Code API's `user.membership.level`, when it says one. */
  membershipLevel?: string | null;
  /** The tier the user declared in the config (`tier`), for when the response lacks a limit. */
  declaredTier: KimiTier | null;
  /** GetSubscriptionStats, when that best-effort call answered in time. */
  membership: KimiMembership | null;
}

export function kimiSnapshot(reading: KimiReading): Snapshot {
  const { weekly } = reading;
  if (weekly === null) return windowsOnly(reading);
  // an answer whose membership names no level (a bare `LEVEL_`) is taken at its word: no tier guessed from the limit
  const guess = namesNoLevel(reading.membershipLevel) ? () => null : tierByWeeklyLimit;
  const responseLimit = positive(weekly.limit);
  // the tier table fills in a missing limit; used + remaining is the last resort
  const weeklyLimit = responseLimit ?? reading.declaredTier?.weeklyRequests ?? sum(weekly.used, weekly.remaining);
  const tier = guess(responseLimit) ?? reading.declaredTier ?? guess(weeklyLimit);
  const weeklyUsed = usedOf(weekly, weeklyLimit);
  const primary = meter("Weekly", {
    usedPercent: weeklyLimit === null ? null : (percentOf(weeklyUsed, weeklyLimit) ?? 0),
    used: weeklyUsed,
    limit: weeklyLimit,
    unit: "requests",
    resetsAt: weekly.resetsAt,
    windowMinutes: WEEK_MINUTES,
    note: weeklyLimit === null ? `${weeklyUsed} requests` : null,
  });
  const rate = reading.rateLimit && hasCounters(reading.rateLimit) ? rateLimitMeter(reading.rateLimit) : null;
  return {
    plan: tier?.name ?? null,
    primary,
    secondary: rate,
    tertiary: codeWeekMeter(reading.membership, primary),
    details: detailsOf(tier, reading.membership),
  };
}

/** An answer whose only quotas are rate-limit windows: those windows are the meters; the plan is only the declared one. */
function windowsOnly(reading: KimiReading): Snapshot {
  const [primary = null, secondary = null] = [reading.rateLimit, reading.nextRateLimit]
    .filter((window): window is KimiRateLimit => window !== null && window !== undefined && hasCounters(window))
    .map(rateLimitMeter);
  const tier = reading.declaredTier;
  const tertiary = primary === null ? null : codeWeekMeter(reading.membership, primary);
  return { plan: tier?.name ?? null, primary, secondary, tertiary, details: detailsOf(tier, reading.membership) };
}

function detailsOf(tier: KimiTier | null, membership: KimiMembership | null): Detail[] {
  const details: Detail[] = [];
  if (tier) {
    details.push({
      label: "Membership",
      value: `${tier.name} (${tier.priceCny} CNY/month, ${groupedNumber(tier.weeklyRequests)} requests/week)`,
    });
  }
  const total = totalUsageDetail(membership);
  if (total) details.push(total);
  return details;
}

/** `LEVEL_` with nothing after it (or only `UNSPECIFIED`): the membership names no level. */
const namesNoLevel = (level: string | null | undefined): boolean =>
  typeof level === "string" && /^LEVEL_?(UNSPECIFIED)?$/i.test(level.trim());

const positive = (value: number | null) => (value !== null && value > 0 ? value : null);
const sum = (a: number | null, b: number | null) => (a !== null && b !== null && a + b > 0 ? a + b : null);
