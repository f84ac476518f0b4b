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
  /** The weekly request quota: GetUsages' `usages[FEATURE_CODING].detail`, or the Code API's `usage`. */
  weekly: KimiQuota;
  /** `limits[0]`: the rate-limit window, when the response has one. */
  rateLimit: KimiRateLimit | null;
  /** The tier the user declared in the config (`tier`), for when the response lacks a limit. */
  declaredTier: KimiTier | null;
  /** GetSubscriptionStats, when that best-effort call answered in time. */
  membership: KimiMembership | null;
}

export function kimiSnapshot(reading: KimiReading): Snapshot {
  const responseLimit = positive(reading.weekly.limit);
  // the tier table fills in a missing limit; used + remaining is the last resort
  const weeklyLimit = responseLimit ?? reading.declaredTier?.weeklyRequests ?? sum(reading.weekly.used, reading.weekly.remaining);
  const tier = tierByWeeklyLimit(responseLimit) ?? reading.declaredTier ?? tierByWeeklyLimit(weeklyLimit);
  const weeklyUsed = usedOf(reading.weekly, weeklyLimit);
  const primary = meter("Weekly", {
    usedPercent: weeklyLimit === null ? null : (percentOf(weeklyUsed, weeklyLimit) ?? 0),
    used: weeklyUsed,
    limit: weeklyLimit,
    unit: "requests",
    resetsAt: reading.weekly.resetsAt,
    windowMinutes: WEEK_MINUTES,
    note: weeklyLimit === null ? `${weeklyUsed} requests` : null,
  });
  const details: Detail[] = [];
  if (tier) {
    details.push({
      label: "Membership",
      value: `${tier.name} (${tier.priceCny} CNY/month, ${groupedNumber(tier.weeklyRequests)} requests/week)`,
    });
  }
  const total = totalUsageDetail(reading.membership);
  if (total) details.push(total);
  const rate = reading.rateLimit && hasCounters(reading.rateLimit) ? rateLimitMeter(reading.rateLimit) : null;
  return { plan: tier?.name ?? null, primary, secondary: rate, tertiary: codeWeekMeter(reading.membership, primary), details };
}

const positive = (value: number | null) => (value !== null && value > 0 ? value : null);
const sum = (a: number | null, b: number | null) => (a !== null && b !== null && a + b > 0 ? a + b : null);
