import { monthMinutesBefore } from "../../domain/calendar-month.js";
import { meter, percentOf } from "../../domain/meter.js";
import { dollars, groupedNumber } from "../../domain/number-text.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

/** The `GetUsageLimits` answer Kiro logged (the object `kiro-cli` shows too), as numbers. */
export interface KiroLimits {
  /** `subscriptionInfo.subscriptionTitle`, title-cased (`KIRO PRO` is Kiro Pro). */
  plan: string | null;
  /** The CREDIT entry of `usageBreakdownList`: used (overage included, as Kiro counts it) of the plan's limit. */
  credits: { used: number; limit: number };
  /** `nextDateReset` (ISO or epoch seconds), of the entry or the answer. */
  resetsAt: string | null;
  /** `freeTrialInfo` while `ACTIVE` (an expired trial still reports itself fully used). */
  trial: { used: number; limit: number; expiresAt: string | null } | null;
  overage: KiroOverage;
}

export interface KiroOverage {
  /** `overageConfiguration.overageStatus`. */
  enabled: boolean | null;
  /** `currentOveragesWithPrecision`: credits used past the limit. */
  used: number | null;
  /** `overageCapWithPrecision`. */
  cap: number | null;
  /** `overageCharges` in `currency`. */
  charges: number | null;
  currency: string | null;
}

const DAY_MS = 86_400_000;

/**
 * Primary: the plan's monthly credits (used less the overage, of the limit), reset at
 * `nextDateReset`, its window the calendar month before it. Secondary: an active free trial's
 * bonus credits, reset at its expiry. Tertiary: the overage used of its cap, when overage is on or
 * used. Details: overage on or off, and its charges.
 */
export function kiroLogSnapshot(limits: KiroLimits, now: Date): Snapshot {
  const { credits, overage, resetsAt } = limits;
  const overageUsed = overage.used ?? 0;
  const planUsed = Math.max(0, credits.used - overageUsed);
  const windowMinutes = monthMinutesBefore(resetsAt);
  const primary = meter("Credits", {
    usedPercent: percentOf(planUsed, credits.limit),
    used: planUsed,
    limit: credits.limit,
    unit: "credits",
    resetsAt,
    windowMinutes,
  });
  return {
    plan: limits.plan,
    primary,
    secondary: trialMeter(limits.trial, now),
    tertiary: overageMeter(overage, resetsAt, windowMinutes),
    details: details(overage),
  };
}

/** An active trial's credits; its reset is when it expires, not a window's end (whole days left in the note, as the countdown reads). */
function trialMeter(trial: KiroLimits["trial"], now: Date): Meter | null {
  if (trial === null || trial.limit <= 0) return null;
  const days = trial.expiresAt === null ? null : Math.max(0, Math.floor((Date.parse(trial.expiresAt) - now.getTime()) / DAY_MS));
  return meter("Bonus credits", {
    usedPercent: percentOf(trial.used, trial.limit),
    used: trial.used,
    limit: trial.limit,
    unit: "credits",
    resetsAt: trial.expiresAt,
    note: days === null ? null : `expires in ${days}d`,
  });
}

function overageMeter(overage: KiroOverage, resetsAt: string | null, windowMinutes: number | null): Meter | null {
  const used = overage.used ?? 0;
  if (overage.cap === null || overage.cap <= 0 || (overage.enabled !== true && used <= 0)) return null;
  return meter("Overage", {
    usedPercent: percentOf(used, overage.cap),
    used,
    limit: overage.cap,
    unit: "credits",
    resetsAt,
    windowMinutes,
  });
}

function details(overage: KiroOverage): Detail[] {
  const rows: Detail[] = [];
  if (overage.enabled !== null) rows.push({ label: "Overages", value: overage.enabled ? "Enabled" : "Disabled" });
  if (overage.charges !== null && (overage.charges > 0 || overage.enabled === true)) {
    const money =
      overage.currency === null || overage.currency === "USD"
        ? dollars(overage.charges)
        : `${groupedNumber(overage.charges, 2)} ${overage.currency}`;
    rows.push({ label: "Overage charges", value: money });
  }
  return rows;
}
