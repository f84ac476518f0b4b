import { groupedNumber } from "../../domain/number-text.js";
import { meter, percentOf } from "../../domain/meter.js";
import type { Detail, Snapshot } from "../../domain/usage-document.js";

/** What `/api/user/credits` said, after the tolerant search of its body and headers. */
export interface Kimik2Reading {
  consumed: number;
  remaining: number;
  averageTokensPerRequest: number | null;
  /** ISO time the service stamped on the numbers; null when it gave none. */
  updatedAt: string | null;
}

/** Credits consumed of consumed + remaining (never negative: the wire refuses those); the service gives no reset time. */
export function kimik2Snapshot(reading: Kimik2Reading, now: Date): Snapshot {
  const { consumed, remaining } = reading;
  const total = consumed + remaining;
  const primary = meter("Credits", {
    usedPercent: percentOf(consumed, total) ?? 0,
    used: consumed,
    limit: total,
    unit: "credits",
    note: null,
  });
  const details: Detail[] = [{ label: "Remaining", value: `${formatCount(remaining)} credits` }];
  if (reading.averageTokensPerRequest !== null) {
    details.push({ label: "Average tokens per request", value: formatCount(reading.averageTokensPerRequest) });
  }
  details.push({ label: "Updated", value: reading.updatedAt ?? now.toISOString() });
  return { plan: null, primary, secondary: null, tertiary: null, details };
}

const formatCount = (value: number) => groupedNumber(value, 2);
