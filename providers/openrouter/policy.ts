import { monthMinutesBefore } from "../../domain/calendar-month.js";
import { dollars } from "../../domain/number-text.js";
import { meter, percentOf } from "../../domain/meter.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";
import { activityDetails, type OpenrouterActivity } from "./policy-activity.js";

/** What `/credits`, (best effort) `/key` and (with a management key) `/activity` said. Money is in US dollars. */
export interface OpenrouterReading {
  totalCredits: number;
  totalUsage: number;
  /** null when `/key` could not be read in time; that never fails the provider. */
  key: OpenrouterKeyInfo | null;
  activity: OpenrouterActivity;
}

/** The windows a key limit can reset on: at 00:00 UTC, weeks from Monday. */
export type LimitReset = "daily" | "weekly" | "monthly";

export interface OpenrouterKeyInfo {
  limit: number | null;
  /** Lifetime spend of the key. */
  usage: number | null;
  limitRemaining: number | null;
  limitReset: LimitReset | null;
  /** Spend of the current UTC day, week and month. */
  usageDaily: number | null;
  usageWeekly: number | null;
  usageMonthly: number | null;
  rateLimit: { requests: number; interval: string } | null;
}

export type { OpenrouterActivity };

const WINDOW_USAGE = { daily: "usageDaily", weekly: "usageWeekly", monthly: "usageMonthly" } as const;
const WINDOW_WORDS = { daily: "day", weekly: "week", monthly: "month" } as const;
const RESET_TEXT = {
  daily: "daily, at 00:00 UTC",
  weekly: "weekly, Monday 00:00 UTC",
  monthly: "monthly, on the 1st at 00:00 UTC",
} as const;

const UNAVAILABLE: Detail = { label: "API key limit", value: "API key limit unavailable right now" };

export function openrouterSnapshot(reading: OpenrouterReading, now: Date): Snapshot {
  const { totalCredits, totalUsage, key } = reading;
  // used and limit go out as sent (the wire refuses negative ones); usage past the credits is over 100 %
  const primary = meter("Credits", {
    usedPercent: percentOf(totalUsage, totalCredits) ?? (totalCredits <= 0 && totalUsage <= 0 ? 0 : 100),
    used: totalUsage,
    limit: totalCredits,
    unit: "USD",
    note: "Credit values may be up to 60 s old",
  });
  const details: Detail[] = [
    { label: "Balance", value: dollars(Math.max(0, totalCredits - totalUsage)) },
    { label: "Credits used", value: dollars(totalUsage) },
    { label: "Credits total", value: dollars(totalCredits) },
  ];
  const rate = key?.rateLimit ? `${key.rateLimit.requests} requests / ${key.rateLimit.interval}` : null;
  const keyMeter = key ? keyLimitMeter(key, rate, now) : null;
  if (key === null) details.push(UNAVAILABLE);
  else details.push(...keyDetails(key, keyMeter), ...spendDetails(key));
  details.push(...activityDetails(reading.activity));
  if (rate) details.push({ label: "Rate limit", value: rate });
  if (totalCredits >= 10) details.push({ label: "Free models", value: "1,000 requests per day" });

  const secondary: Meter | null = keyMeter ?? (rate ? meter("Rate limit", { note: rate }) : null);
  return { plan: null, primary, secondary, tertiary: null, details };
}

/** Spend counted against the limit: what `limit_remaining` leaves, else the spend of the reset window, else lifetime. */
function keySpend(key: OpenrouterKeyInfo & { limit: number }): number | null {
  if (key.limitRemaining !== null) return key.limit - Math.min(key.limit, Math.max(0, key.limitRemaining));
  const windowed = key.limitReset ? key[WINDOW_USAGE[key.limitReset]] : null;
  return windowed ?? key.usage;
}

function keyLimitMeter(key: OpenrouterKeyInfo, rate: string | null, now: Date): Meter | null {
  if (key.limit === null || key.limit <= 0) return null;
  const limit = key.limit;
  const used = keySpend({ ...key, limit });
  if (used === null) return null;
  const left = Math.max(0, limit - used);
  const resetsAt = key.limitReset ? nextReset(key.limitReset, now) : null;
  return meter("API key limit", {
    usedPercent: percentOf(used, limit),
    used,
    limit,
    unit: "USD",
    resetsAt,
    windowMinutes: key.limitReset ? windowMinutes(key.limitReset, resetsAt) : null,
    note: `${dollars(left)}/${dollars(limit)} left${rate ? ` · rate limit ${rate}` : ""}`,
  });
}

function keyDetails(key: OpenrouterKeyInfo, keyMeter: Meter | null): Detail[] {
  if (key.limit === null || key.limit <= 0) return [{ label: "API key limit", value: "No limit set for the API key" }];
  if (keyMeter === null || keyMeter.used === null) return [UNAVAILABLE];
  const per = key.limitReset ? ` per ${WINDOW_WORDS[key.limitReset]}` : "";
  return [
    { label: "Key budget", value: `${dollars(key.limit)}${per}` },
    { label: "Key remaining", value: dollars(Math.max(0, key.limit - keyMeter.used)) },
    { label: "Key used", value: dollars(keyMeter.used) },
    { label: "Key limit resets", value: key.limitReset ? RESET_TEXT[key.limitReset] : "never" },
  ];
}

function spendDetails(key: OpenrouterKeyInfo): Detail[] {
  const rows: [string, number | null][] = [
    ["Spent today", key.usageDaily],
    ["Spent this week", key.usageWeekly],
    ["Spent this month", key.usageMonthly],
  ];
  return rows.flatMap(([label, value]) => (value === null ? [] : [{ label, value: dollars(value) }]));
}

/** A day, a week, or the calendar month that ends at the reset (UTC). */
function windowMinutes(window: LimitReset, resetsAt: string | null): number | null {
  if (window === "daily") return 1440;
  if (window === "weekly") return 10_080;
  return monthMinutesBefore(resetsAt);
}

/** The next 00:00 UTC that starts a new day, week (Monday) or month. */
export function nextReset(window: LimitReset, now: Date): string {
  const [year, month, day] = [now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()];
  if (window === "daily") return new Date(Date.UTC(year, month, day + 1)).toISOString();
  if (window === "weekly") return new Date(Date.UTC(year, month, day + ((8 - now.getUTCDay()) % 7 || 7))).toISOString();
  return new Date(Date.UTC(year, month + 1, 1)).toISOString();
}
