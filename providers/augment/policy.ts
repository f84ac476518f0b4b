import { monthMinutesBefore } from "../../domain/calendar-month.js";
import { fromIso } from "../../domain/coerce.js";
import { meter, percentOf } from "../../domain/meter.js";
import type { Detail, Snapshot } from "../../domain/usage-document.js";
import { groupedNumber } from "../../domain/number-text.js";

/** `GET /api/credits`: every figure is optional upstream. */
export interface AugmentCredits {
  remaining: number | null;
  consumed: number | null;
  /** The cycle's allowance; used as the limit when positive. */
  available: number | null;
}

/** `GET /api/subscription`, when it answered. */
export interface AugmentSubscription {
  planName: string | null;
  billingPeriodEnd: string | null;
  email: string | null;
  organization: string | null;
}

export interface AugmentWebReading {
  credits: AugmentCredits;
  subscription: AugmentSubscription | null;
}

/** A day as auggie prints it (`ends 4/2/2026`). */
export interface CycleDay {
  year: number;
  month: number;
  day: number;
}

/** What `auggie account status` said. */
export interface AugmentCliReading {
  remaining: number;
  used: number;
  limit: number;
  /** `450,000 credits / month`, the plan's allowance. */
  monthlyCredits: number | null;
  cycleEnd: CycleDay | null;
}

/** Credits consumed of the cycle's limit, the plan, the account; the reset is the billing period's end. */
export function augmentWebSnapshot(reading: AugmentWebReading): Snapshot {
  const { remaining, consumed, available } = reading.credits;
  const summed = remaining !== null && consumed !== null ? remaining + consumed : null;
  const limit = available !== null && available > 0 ? available : summed !== null && summed >= 0 ? summed : null;
  // consumed is never negative (the wire refuses it); more left than the limit reads as nothing used
  const used = consumed ?? (limit !== null && remaining !== null ? Math.max(0, limit - remaining) : null);
  const subscription = reading.subscription;
  const details: Detail[] = [];
  if (subscription?.email) details.push({ label: "Account", value: subscription.email });
  if (subscription?.organization) details.push({ label: "Organization", value: subscription.organization });
  const resetsAt = fromIso(subscription?.billingPeriodEnd);
  return {
    plan: subscription?.planName ?? null,
    primary: meter("Credits", {
      // the reference's "else 0": a figure without a limit is a bar at 0 %, never an error
      usedPercent: used !== null && limit !== null ? (percentOf(used, limit) ?? 0) : 0,
      used,
      limit,
      unit: "credits",
      resetsAt,
      // a monthly billing period whose answer gives only its end: the calendar month up to it
      windowMinutes: monthMinutesBefore(resetsAt),
    }),
    secondary: null,
    tertiary: null,
    details,
  };
}

export function augmentCliSnapshot(reading: AugmentCliReading): Snapshot {
  const resetsAt = reading.cycleEnd ? localMidnight(reading.cycleEnd) : null;
  return {
    plan: reading.monthlyCredits === null ? null : `${groupedNumber(reading.monthlyCredits, 3)} credits/month`,
    primary: meter("Credits", {
      usedPercent: percentOf(reading.used, reading.limit) ?? 0,
      used: reading.used,
      limit: reading.limit,
      unit: "credits",
      resetsAt,
      // the monthly billing cycle, of which auggie prints only the end: the calendar month up to it
      windowMinutes: monthMinutesBefore(resetsAt),
    }),
    secondary: null,
    tertiary: null,
    details: [],
  };
}

/** Local midnight of that day; null for a day that does not exist or a year before 2000. */
export function localMidnight({ year, month, day }: CycleDay): string | null {
  if (year < 2000) return null;
  const date = new Date(year, month - 1, day);
  const exists = date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day;
  return exists ? date.toISOString() : null;
}
