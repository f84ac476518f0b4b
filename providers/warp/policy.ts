import { monthMinutesBefore } from "../../domain/calendar-month.js";
import { fromIso } from "../../domain/coerce.js";
import { meter, percentOf, unlimitedMeter } from "../../domain/meter.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

export interface WarpGrant {
  granted: number;
  remaining: number;
  expiration: string | null;
}

/** `requestLimitInfo` plus every add-on grant (user and workspace level). Counts are credits. */
export interface WarpReading {
  isUnlimited: boolean;
  requestLimit: number;
  requestsUsed: number;
  nextRefreshTime: string | null;
  grants: WarpGrant[];
  /** The key does not look like a Warp key (wk-...): worth a warning, not a rejection. */
  keyLooksUnusual: boolean;
}

export function warpSnapshot(reading: WarpReading): Snapshot {
  const details: Detail[] = [];
  let primary: Meter;
  if (reading.isUnlimited) {
    primary = unlimitedMeter("Credits", { used: reading.requestsUsed, unit: "credits" });
  } else {
    const resetsAt = reading.requestLimit > 0 ? fromIso(reading.nextRefreshTime) : null;
    primary = meter("Credits", {
      usedPercent: percentOf(reading.requestsUsed, reading.requestLimit) ?? 0,
      used: reading.requestsUsed,
      limit: reading.requestLimit,
      unit: "credits",
      resetsAt,
      // the plan's credits refresh monthly; the answer states no length: the calendar month up to the refresh
      windowMinutes: monthMinutesBefore(resetsAt),
    });
  }
  if (reading.keyLooksUnusual) details.push({ label: "Warning", value: "The API key does not start with wk-" });
  return { plan: reading.isUnlimited ? "Unlimited" : null, primary, secondary: addOnMeter(reading.grants), tertiary: null, details };
}

/** Pooled add-on credits; the note names the amount that expires first. */
function addOnMeter(grants: WarpGrant[]): Meter | null {
  const total = grants.reduce((sum, g) => sum + g.granted, 0);
  const remaining = grants.reduce((sum, g) => sum + g.remaining, 0);
  if (total <= 0 && remaining <= 0) return null;
  const usedPercent = total > 0 ? percentOf(total - remaining, total) : remaining > 0 ? 0 : 100;
  const expiring = grants
    .filter((g) => g.remaining > 0 && fromIso(g.expiration) !== null)
    .map((g) => ({ ...g, at: Math.floor(new Date(g.expiration as string).getTime() / 1000) }));
  let note: string | null = null;
  if (expiring.length > 0) {
    const first = Math.min(...expiring.map((g) => g.at));
    const amount = expiring.filter((g) => g.at === first).reduce((sum, g) => sum + g.remaining, 0);
    note = `${amount} credits expire on ${new Date(first * 1000).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  }
  return meter("Add-on credits", { usedPercent, used: total - remaining, limit: total, unit: "credits", note });
}
