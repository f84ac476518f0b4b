import { meter, percentOf } from "../../domain/meter.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

/** What `/credits` and (best effort) `/key` said. Money is in US dollars. */
export interface OpenrouterReading {
  totalCredits: number;
  totalUsage: number;
  /** null when `/key` could not be read in time; that never fails the provider. */
  key: OpenrouterKeyInfo | null;
}

export interface OpenrouterKeyInfo {
  limit: number | null;
  usage: number | null;
  limitRemaining: number | null;
  rateLimit: { requests: number; interval: string } | null;
}

const usd = (value: number) => `$${value.toFixed(2)}`;

export function openrouterSnapshot(reading: OpenrouterReading): Snapshot {
  const { totalCredits, totalUsage, key } = reading;
  const balance = Math.max(0, totalCredits - totalUsage);
  const primary = meter("Credits", {
    usedPercent: percentOf(totalUsage, totalCredits) ?? (totalCredits <= 0 && totalUsage <= 0 ? 0 : 100),
    used: totalUsage,
    limit: totalCredits,
    unit: "USD",
    note: "Credit values may be up to 60 s old",
  });
  const details: Detail[] = [{ label: "Balance", value: usd(balance) }];
  const rate = key?.rateLimit ? `${key.rateLimit.requests} requests / ${key.rateLimit.interval}` : null;
  if (rate) details.push({ label: "Rate limit", value: rate });
  if (totalCredits >= 10) details.push({ label: "Free models", value: "1000 requests per day" });

  let secondary: Meter | null = null;
  if (key === null) {
    details.push({ label: "API key limit", value: "API key limit unavailable right now" });
  } else if (key.limit !== null && key.limit > 0) {
    const used = key.limitRemaining !== null ? key.limit - Math.min(key.limit, Math.max(0, key.limitRemaining)) : key.usage;
    if (used === null) {
      details.push({ label: "API key limit", value: "API key limit unavailable right now" });
    } else {
      const left = Math.max(0, key.limit - used);
      secondary = meter("API key limit", {
        usedPercent: percentOf(used, key.limit),
        used,
        limit: key.limit,
        unit: "USD",
        note: `${usd(left)}/${usd(key.limit)} left${rate ? ` · rate limit ${rate}` : ""}`,
      });
    }
  } else {
    details.push({ label: "API key limit", value: "No limit set for the API key" });
  }
  if (secondary === null && rate) secondary = meter("Rate limit", { note: rate });

  return { plan: null, primary, secondary, tertiary: null, details };
}
