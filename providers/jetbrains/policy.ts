import { meter, percentOf } from "../../domain/meter.js";
import type { Detail, Snapshot } from "../../domain/usage-document.js";
import { readableAmount } from "../../domain/number-text.js";

/** AI Assistant's quota as the IDE last wrote it (`quotaInfo` and `nextRefill`). Amounts are its credits. */
export interface JetBrainsReading {
  /** The IDE whose file answered, as people name it ("IntelliJ IDEA 2025.1"). */
  ide: string;
  /** `quotaInfo.type` ("Available", "free", ...). */
  plan: string | null;
  used: number;
  limit: number;
  /** `nextRefill.next`: when the monthly credits refill. */
  refillAt: string | null;
  refillAmount: number | null;
  refillMinutes: number | null;
  /** Parts of the file that could not be read but did not stop the meter. */
  warnings: string[];
}

export function jetbrainsSnapshot(reading: JetBrainsReading): Snapshot {
  const primary = meter("Monthly credits", {
    // no positive allowance: 0 % rather than a ratio of nothing
    usedPercent: percentOf(reading.used, reading.limit) ?? 0,
    used: reading.used,
    limit: reading.limit > 0 ? reading.limit : null,
    unit: "credits",
    resetsAt: reading.refillAt,
    windowMinutes: reading.refillMinutes,
    note: refillNote(reading.refillAmount, reading.refillMinutes),
  });
  const details: Detail[] = [{ label: "IDE", value: reading.ide }, ...reading.warnings.map((value) => ({ label: "Warning", value }))];
  return { plan: reading.plan, primary, secondary: null, tertiary: null, details };
}

/** "Refills 300K credits every 30 days": the amount written as the meter writes its limit. */
function refillNote(amount: number | null, minutes: number | null): string | null {
  if (amount === null) return null;
  const credits = `Refills ${readableAmount(amount)} credits`;
  return minutes === null ? credits : `${credits} every ${period(minutes)}`;
}

function period(minutes: number): string {
  const [count, unit] = minutes % 1440 === 0 ? [minutes / 1440, "day"] : minutes % 60 === 0 ? [minutes / 60, "hour"] : [minutes, "minute"];
  return count === 1 ? unit : `${count} ${unit}s`;
}
