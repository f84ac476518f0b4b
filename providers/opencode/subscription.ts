import { countProblem, findObject, isObject, toNumber, toTime, type JsonObject } from "../kit/index.js";
import type { OpenCodeWindow, SubscriptionWindows } from "./policy.js";

/** Where each window may sit, in the order looked for: the serialized names first, JSON spellings after. */
const ROLLING_KEYS = ["rollingUsage", "rolling_usage", "rolling", "rollingWindow", "rolling_window"];
const WEEKLY_KEYS = ["weeklyUsage", "weekly_usage", "weekly", "weeklyWindow", "weekly_window"];
/** The Go subscription's third window (an object: billing's `monthlyUsage` is a number, and never read here). */
const MONTHLY_KEYS = ["monthlyUsage", "monthly_usage", "monthly", "monthlyWindow", "monthly_window"];
const PERCENT_KEYS = ["usagePercent", "usage_percent", "usedPercent", "used_percent", "percentUsed", "percent", "utilization"];
const USED_KEYS = ["used", "usage", "consumed", "count", "usedTokens"];
const LIMIT_KEYS = ["limit", "total", "quota", "max", "cap", "tokenLimit"];
const RESET_SECONDS_KEYS = ["resetInSec", "reset_in_sec", "resetInSeconds", "resetsInSec", "resetsInSeconds", "resetSeconds", "resetIn"];
const RESET_AT_KEYS = ["resetAt", "resetsAt", "reset_at", "resets_at", "nextReset", "next_reset"];

/**
 * The rolling and weekly windows of a subscription answer (and the monthly one where the account
 * has it, as OpenCode Go does), or the fields that were missing (named as the answer names them).
 */
export type Windows = SubscriptionWindows | { missing: string[] };

export function subscriptionWindows(values: unknown[]): Windows {
  const rolling = windowAt(values, ROLLING_KEYS);
  const weekly = windowAt(values, WEEKLY_KEYS);
  if (rolling && weekly) return { rolling, weekly, monthly: windowAt(values, MONTHLY_KEYS) };
  return { missing: [...(rolling ? [] : ["rollingUsage.usagePercent"]), ...(weekly ? [] : ["weeklyUsage.usagePercent"])] };
}

/** The first object holding one of `keys` whose value reads as a window. */
function windowAt(values: unknown[], keys: readonly string[]): OpenCodeWindow | null {
  const windowOf = (o: JsonObject) => keys.map((key) => (isObject(o[key]) ? readWindow(o[key]) : null)).find((w) => w !== null) ?? null;
  const holder = findObject(values, (o) => windowOf(o) !== null);
  return holder ? windowOf(holder) : null;
}

/** The first of `keys` holding a reading (negative or beyond 10^15 is none, and a window without one is missing). */
const first = (o: JsonObject, keys: readonly string[]) =>
  keys.map((key) => toNumber(o[key])).find((value): value is number => value !== null && countProblem(value) === null) ?? null;

/** A percent (or used of a positive limit), with the reset in seconds or as a time; no percent, no window. */
function readWindow(o: JsonObject): OpenCodeWindow | null {
  const used = first(o, USED_KEYS);
  const limit = first(o, LIMIT_KEYS);
  const usedPercent = first(o, PERCENT_KEYS) ?? (used !== null && limit !== null && limit > 0 ? (used / limit) * 100 : null);
  if (usedPercent === null) return null;
  const resetInSec = first(o, RESET_SECONDS_KEYS);
  const resetAt = RESET_AT_KEYS.map((key) => toTime(o[key])).find((at) => at !== null) ?? null;
  return { usedPercent, resetInSec: resetInSec === null ? null : Math.floor(resetInSec), resetAt };
}
