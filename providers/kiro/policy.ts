import { monthMinutesBefore } from "../../domain/calendar-month.js";
import { dollars } from "../../domain/number-text.js";
import { meter, percentOf } from "../../domain/meter.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

/** A date as `kiro-cli` prints it: `MM/DD` (no year: the next such day) or `YYYY-MM-DD`. */
export interface CalendarDay {
  year: number | null;
  month: number;
  day: number;
}

export interface CreditCount {
  used: number;
  total: number;
}

/** What `kiro-cli chat --no-interactive /usage` (and `whoami`) said, as numbers and words. */
export interface KiroReading {
  /** `| KIRO PRO` (title-cased) or `Plan: Q Developer Pro`. */
  plan: string | null;
  /** The number after the monthly credits bar. */
  percent: number | null;
  /** `(420.37 of 1000 covered in plan)`. */
  credits: CreditCount | null;
  /** `Credits used: 12.50` (kiro-cli 2.x), when no total is printed. */
  creditsUsed: number | null;
  resetsOn: CalendarDay | null;
  /** `Bonus credits: 12.50/500`. */
  bonus: CreditCount | null;
  bonusExpiresInDays: number | null;
  /** `managed by admin` / `managed by organization`: the plan's numbers live elsewhere. */
  managed: boolean;
  overages: string | null;
  estimatedCostUsd: number | null;
  /** From `kiro-cli whoami`. */
  account: string | null;
  signedInWith: string | null;
}

const MAX_DAYS = 36_600;

export function kiroSnapshot(reading: KiroReading, now: Date): Snapshot {
  return {
    plan: reading.plan,
    primary: creditsMeter(reading, now),
    secondary: bonusMeter(reading, now),
    tertiary: null,
    details: details(reading),
  };
}

/** The monthly credits: the bar's percent, else used of covered; a managed plan without numbers shows 0 % (as Kiro's own tools do). */
function creditsMeter(reading: KiroReading, now: Date): Meter {
  const { credits, percent } = reading;
  const limit = credits && credits.total > 0 ? credits.total : null;
  const fromCredits = credits && limit !== null ? percentOf(credits.used, limit) : null;
  const noNumbers = percent === null && credits === null && reading.creditsUsed === null;
  const resetsAt = reading.resetsOn ? nextOccurrence(reading.resetsOn, now) : null;
  return meter("Credits", {
    usedPercent: percent ?? fromCredits ?? (reading.managed && noNumbers ? 0 : null),
    used: limit !== null && credits ? credits.used : reading.creditsUsed,
    limit,
    unit: "credits",
    resetsAt,
    // the monthly credits; the CLI prints only the reset day: the calendar month up to it
    windowMinutes: monthMinutesBefore(resetsAt),
    note: reading.managed && noNumbers ? "Managed by your administrator" : null,
  });
}

/** Bonus credits, with their expiry as the meter's reset and in its note. */
function bonusMeter(reading: KiroReading, now: Date): Meter | null {
  const { bonus, bonusExpiresInDays: days } = reading;
  if (!bonus || bonus.total <= 0) return null;
  let expires: Date | null = null;
  if (days !== null && days <= MAX_DAYS) {
    expires = new Date(now);
    expires.setDate(expires.getDate() + days); // calendar days, as the CLI counts them
  }
  return meter("Bonus credits", {
    usedPercent: percentOf(bonus.used, bonus.total),
    used: bonus.used,
    limit: bonus.total,
    unit: "credits",
    resetsAt: expires?.toISOString() ?? null,
    note: days !== null ? `expires in ${days}d` : null,
  });
}

function details(reading: KiroReading): Detail[] {
  const rows: [string, string | null][] = [
    ["Account", reading.account],
    ["Signed in with", reading.signedInWith],
    ["Overages", reading.overages],
    ["Estimated cost", reading.estimatedCostUsd === null ? null : dollars(reading.estimatedCostUsd)],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== null).map(([label, value]) => ({ label, value }));
}

/**
 * Local midnight of that day. Without a year: the first such day still ahead (29 February may be
 * years away). Null for a day that does not exist or a year before 2000.
 */
export function nextOccurrence(on: CalendarDay, now: Date): string | null {
  if (on.year !== null && on.year < 2000) return null;
  const years = on.year !== null ? [on.year] : Array.from({ length: 5 }, (_, i) => now.getFullYear() + i);
  for (const year of years) {
    const date = new Date(year, on.month - 1, on.day);
    const exists = date.getFullYear() === year && date.getMonth() === on.month - 1 && date.getDate() === on.day;
    if (exists && (on.year !== null || date > now)) return date.toISOString();
  }
  return null;
}
