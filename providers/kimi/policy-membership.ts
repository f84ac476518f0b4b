import { overQuotaNote } from "../../domain/coerce.js";
import { meter, percent } from "../../domain/meter.js";
import type { Detail, Meter } from "../../domain/usage-document.js";
import { WEEK_MINUTES } from "./policy-quota.js";

/** What GetSubscriptionStats says; ratios are 0..1, above 1 past the quota (a full meter, with a note). */
export interface KimiMembership {
  /** `subscriptionBalance`: how much of the whole subscription is used. */
  balance: { feature: string | null; type: string | null; usedRatio: number | null; endsAt: string | null } | null;
  /** `ratelimitCode7d`: the rolling 7-day Kimi Code window. */
  codeWeek: { ratio: number | null; enabled: boolean | null; resetsAt: string | null } | null;
}

/** Within this of the weekly meter (points and time), the 7-day window is the same one said twice. */
const SAME_PERCENT_POINTS = 1;
const SAME_RESET_MS = 5 * 60 * 1000;

/** The 7-day Kimi Code window as the tertiary meter; none when disabled, absent or a repeat of the weekly one. */
export function codeWeekMeter(membership: KimiMembership | null, weekly: Meter): Meter | null {
  const window = membership?.codeWeek;
  if (!window || window.enabled === false || window.ratio === null) return null;
  const usedPercent = percent(window.ratio * 100);
  if (isSameWindow(usedPercent, window.resetsAt, weekly)) return null;
  const note = overQuotaNote(window.ratio * 100);
  return meter("Code 7-day", { usedPercent, resetsAt: window.resetsAt, windowMinutes: WEEK_MINUTES, note });
}

function isSameWindow(usedPercent: number, resetsAt: string | null, weekly: Meter): boolean {
  if (weekly.usedPercent === null || resetsAt === null || weekly.resetsAt === null) return false;
  const resetGap = Math.abs(Date.parse(resetsAt) - Date.parse(weekly.resetsAt));
  return Math.abs(usedPercent - weekly.usedPercent) <= SAME_PERCENT_POINTS && resetGap <= SAME_RESET_MS;
}

/** The subscription's total usage, only for the subscription balance itself (not a top-up or another feature). */
export function totalUsageDetail(membership: KimiMembership | null): Detail | null {
  const balance = membership?.balance;
  if (!balance || balance.usedRatio === null) return null;
  if (balance.feature !== null && balance.feature !== "FEATURE_OMNI") return null;
  if (balance.type !== null && balance.type !== "SUBSCRIPTION") return null;
  const until = balance.endsAt ? `, until ${balance.endsAt.slice(0, 16).replace("T", " ")} UTC` : "";
  // past the whole, the real figure: a detail has no bar to be full
  return { label: "Total usage", value: `${Math.round(balance.usedRatio * 10_000) / 100}% used${until}` };
}
