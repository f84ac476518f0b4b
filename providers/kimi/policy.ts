import { meter, percentOf } from "../../domain/meter.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

/** The rate-limit window is 5 hours whatever the response says. */
const RATE_WINDOW_MINUTES = 300;
const WEEK_MINUTES = 7 * 24 * 60;
/** Kimi's docs give 200 requests per 5 hours for every tier; used when the window has no limit. */
const RATE_LIMIT_PER_WINDOW = 200;

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

/** One counter block (`detail`) of GetUsages; counters are request counts. */
export interface KimiQuota {
  limit: number | null;
  used: number | null;
  remaining: number | null;
  resetsAt: string | null;
}

export interface KimiReading {
  /** `usages[FEATURE_CODING].detail`: the weekly request quota. */
  weekly: KimiQuota;
  /** `limits[0].detail`: the 5-hour rate limit, when the response has one. */
  rateLimit: KimiQuota | null;
  /** The tier the user declared in the config (`tier`), for when the response lacks a limit. */
  declaredTier: KimiTier | null;
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
    details.push({ label: "Membership", value: `${tier.name} (${tier.priceCny} CNY/month, ${tier.weeklyRequests} requests/week)` });
  }
  return { plan: tier?.name ?? null, primary, secondary: rateLimitMeter(reading.rateLimit), tertiary: null, details };
}

function rateLimitMeter(quota: KimiQuota | null): Meter | null {
  if (!quota) return null;
  const limit = positive(quota.limit) ?? RATE_LIMIT_PER_WINDOW;
  const used = usedOf(quota, limit);
  return meter("5-hour", {
    usedPercent: percentOf(used, limit) ?? 0,
    used,
    limit,
    unit: "requests",
    resetsAt: quota.resetsAt,
    windowMinutes: RATE_WINDOW_MINUTES,
    note: `${limit} requests per 5 hours`,
  });
}

/** `used` when given, else limit - remaining, else 0 (never negative). */
function usedOf(quota: KimiQuota, limit: number | null): number {
  if (quota.used !== null) return Math.max(0, quota.used);
  if (limit !== null && quota.remaining !== null) return Math.max(0, limit - quota.remaining);
  return 0;
}

const positive = (value: number | null) => (value !== null && value > 0 ? value : null);
const sum = (a: number | null, b: number | null) => (a !== null && b !== null && a + b > 0 ? a + b : null);
