import { monthMinutesBefore } from "../../domain/calendar-month.js";
import { clamp, meter } from "../../domain/meter.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

/** One token pool of the usage answer: `userTokens`, `totalAllowance`, `usedRatio`. */
export interface FactoryPool {
  used: number;
  allowance: number;
  ratio: number | null;
}

export interface FactoryReading {
  /** The step of the credential chain that answered, in words ("Step 3: stored bearer token"). */
  credential: string;
  organization: string | null;
  tier: string | null;
  planName: string | null;
  periodStart: string | null;
  /** The billing period's end: both meters reset then. */
  periodEnd: string | null;
  standard: FactoryPool | null;
  premium: FactoryPool | null;
}

/** An allowance above this is Factory's "unlimited" sentinel; 100M tokens then fill the bar. */
const UNLIMITED_ALLOWANCE = 1e12;
const UNLIMITED_BAR_TOKENS = 100_000_000;

/** Whether the allowance says nothing about a limit (none, or the unlimited sentinel). */
const unreliable = (allowance: number) => allowance <= 0 || allowance > UNLIMITED_ALLOWANCE;

/**
 * Percent used of a pool: `usedRatio` when it is a ratio (−0.001..1.001), or a percent when the
 * allowance is unreliable (−0.1..100.1); a zero ratio with tokens used is not believed. Otherwise
 * the tokens: of 100M for the unlimited sentinel, of the allowance, or 0 without one.
 */
export function poolPercent({ used, allowance, ratio }: FactoryPool): number {
  if (ratio !== null && Number.isFinite(ratio) && !(ratio === 0 && used > 0)) {
    if (ratio >= -0.001 && ratio <= 1.001) return clamp(ratio * 100);
    if (unreliable(allowance) && ratio >= -0.1 && ratio <= 100.1) return clamp(ratio);
  }
  if (allowance > UNLIMITED_ALLOWANCE) return Math.min(100, (used / UNLIMITED_BAR_TOKENS) * 100);
  if (allowance <= 0) return 0;
  return Math.min(100, (used / allowance) * 100);
}

/**
 * The billing period's length: `endDate − startDate` as sent (epoch milliseconds); an answer without
 * the start gets the calendar month up to the end (the subscription bills monthly).
 */
export function periodMinutes(start: string | null, end: string | null): number | null {
  const minutes = start === null || end === null ? Number.NaN : Math.round((Date.parse(end) - Date.parse(start)) / 60_000);
  return Number.isFinite(minutes) && minutes > 0 ? minutes : monthMinutesBefore(end);
}

function poolMeter(label: string, pool: FactoryPool, resetsAt: string | null, windowMinutes: number | null): Meter {
  return meter(label, {
    usedPercent: poolPercent(pool),
    used: pool.used,
    limit: unreliable(pool.allowance) ? null : pool.allowance,
    unit: "tokens",
    resetsAt,
    windowMinutes,
    note: pool.allowance > UNLIMITED_ALLOWANCE ? "Unlimited allowance: the bar counts 100M tokens as full" : null,
  });
}

const capitalized = (text: string) => text.replace(/\S+/g, (word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase());

/** "Factory <Tier>" and the plan's name (left out when it says Factory itself, or only the tier again), joined by " - ". */
export function planLabel(tier: string | null, planName: string | null): string | null {
  const repeatsTier = tier !== null && planName !== null && planName.trim().toLowerCase() === tier.trim().toLowerCase();
  const parts = [tier ? `Factory ${capitalized(tier)}` : null, planName && !/factory/i.test(planName) && !repeatsTier ? planName : null];
  const label = parts.filter((part): part is string => part !== null).join(" - ");
  return label === "" ? null : label;
}

export function factorySnapshot(reading: FactoryReading): Snapshot {
  const details: Detail[] = [];
  if (reading.organization) details.push({ label: "Organization", value: reading.organization });
  details.push({ label: "Credential", value: reading.credential });
  const standard = reading.standard ?? { used: 0, allowance: 0, ratio: null };
  const windowMinutes = periodMinutes(reading.periodStart, reading.periodEnd);
  return {
    plan: planLabel(reading.tier, reading.planName),
    primary: poolMeter("Standard", standard, reading.periodEnd, windowMinutes),
    secondary: reading.premium ? poolMeter("Premium", reading.premium, reading.periodEnd, windowMinutes) : null,
    tertiary: null,
    details,
  };
}
