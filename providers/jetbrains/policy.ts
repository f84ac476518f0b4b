import { meter, percentOf } from "../../domain/meter.js";
import type { Detail, Snapshot } from "../../domain/usage-document.js";
import { groupedNumber, readableAmount } from "../../domain/number-text.js";
import { monthMinutesBefore } from "../../domain/calendar-month.js";

/** AI Assistant's quota as the IDE last wrote it (`quotaInfo` and `nextRefill`). Amounts are credits (the file's units / 100,000). */
export interface JetBrainsReading {
  /** The IDE whose file answered, as people name it ("IntelliJ IDEA 2025.1"). */
  ide: string;
  /** `quotaInfo.type` ("Available", "free", ...). */
  plan: string | null;
  used: number;
  limit: number;
  /** What can still be spent: `tariffQuota.available` plus `topUpQuota.available`, else limit - used. */
  left: number;
  /** `topUpQuota.available`: bought credits, counted in `left`. */
  topUpLeft: number | null;
  /** `nextRefill.next`, else `quotaInfo.until`: when the monthly credits refill. */
  refillAt: string | null;
  refillAmount: number | null;
  /** The refill period the file states (`duration`, ISO 8601). */
  refillMinutes: number | null;
  /** Parts of the file that could not be read but did not stop the meter. */
  warnings: string[];
}

export function jetbrainsSnapshot(reading: JetBrainsReading): Snapshot {
  const primary = meter("Monthly credits", {
    // no positive allowance: 0 % rather than a ratio of nothing
    usedPercent: percentOf(reading.used, reading.limit) ?? 0,
    used: cents(reading.used),
    limit: reading.limit > 0 ? cents(reading.limit) : null,
    unit: "credits",
    resetsAt: reading.refillAt,
    // the stated period, else the monthly allowance's calendar month up to the refill
    windowMinutes: reading.refillMinutes ?? monthMinutesBefore(reading.refillAt),
    note: refillNote(reading.refillAmount, reading.refillMinutes),
  });
  const details: Detail[] = [
    { label: "IDE", value: reading.ide },
    { label: "Left", value: leftText(reading.left, reading.topUpLeft) },
    ...reading.warnings.map((value) => ({ label: "Warning", value })),
  ];
  return { plan: reading.plan, primary, secondary: null, tertiary: null, details };
}

/** Credits to the cent, as the IDE shows them (19.8168492 is 19.82). */
function cents(value: number): number {
  return Math.round(value * 100) / 100;
}

/** "20.18 credits", "20.18 credits (5 top-up)". */
function leftText(left: number, topUp: number | null): string {
  const text = `${groupedNumber(left, 2)} credits`;
  return topUp === null || topUp <= 0 ? text : `${text} (${groupedNumber(topUp, 2)} top-up)`;
}

/** "Refills 3 credits every 30 days": the amount written as the meter writes its limit. */
function refillNote(amount: number | null, minutes: number | null): string | null {
  if (amount === null) return null;
  const credits = `Refills ${readableAmount(amount)} credits`;
  return minutes === null ? credits : `${credits} every ${period(minutes)}`;
}

function period(minutes: number): string {
  const [count, unit] = minutes % 1440 === 0 ? [minutes / 1440, "day"] : minutes % 60 === 0 ? [minutes / 60, "hour"] : [minutes, "minute"];
  return count === 1 ? unit : `${count} ${unit}s`;
}
