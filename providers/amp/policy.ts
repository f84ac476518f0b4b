import { afterSeconds } from "../../domain/coerce.js";
import { meter, percentOf } from "../../domain/meter.js";
import type { Snapshot } from "../../domain/usage-document.js";

/** The `freeTierUsage` payload of ampcode.com/settings (amounts in one unit, likely US cents; only ratios are shown). */
export interface AmpFreeTier {
  quota: number;
  used: number;
  /** How much of `used` is given back every hour. */
  hourlyReplenishment: number;
  windowHours: number | null;
}

const rate = (value: number) => String(Math.round(value * 100) / 100);

/**
 * Primary: the daily free usage, reset when the replenishment has paid back everything used
 * (time to full). Secondary: the hourly replenishment rate itself, as a note without a bar.
 */
export function ampSnapshot(tier: AmpFreeTier, now: Date): Snapshot {
  const refills = tier.quota > 0 && tier.hourlyReplenishment > 0;
  const primary = meter("Amp Free", {
    usedPercent: percentOf(tier.used, tier.quota),
    used: tier.used,
    limit: tier.quota,
    resetsAt: refills ? afterSeconds(now, (tier.used / tier.hourlyReplenishment) * 3600) : null,
    windowMinutes: tier.windowHours !== null && tier.windowHours > 0 ? Math.round(tier.windowHours * 60) : null,
  });
  const secondary = meter("Replenishment", { note: `Replenishes ${rate(tier.hourlyReplenishment)}/hour` });
  return { plan: "Amp Free", primary, secondary, tertiary: null, details: [] };
}
