import { dollars } from "../../domain/number-text.js";
import { meter } from "../../domain/meter.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";
import { ampSnapshot } from "./policy.js";

/** `Amp Free: $1.66/$20 remaining (replenishes +$0.83/hour)`, in dollars. */
export interface AmpFreeDollars {
  kind: "dollars";
  remaining: number;
  total: number;
  hourly: number;
}

/** `Amp Free: 61% remaining today (resets daily)`. */
export interface AmpFreePercent {
  kind: "percent";
  remainingPercent: number;
}

/** What `userDisplayBalanceInfo`'s text said, line by line, as numbers. */
export interface AmpBalance {
  free: AmpFreeDollars | AmpFreePercent | null;
  /** `+20% bonus for 5 more days` after the Amp Free line. */
  bonus: { percent: number; days: number } | null;
  /** `Individual credits: $17.23 remaining`. */
  credits: number | null;
  /** `Workspace <name>: $5.33 remaining` (a workspace's balance may be negative). */
  workspaces: { name: string; remaining: number }[];
}

const DAY_MINUTES = 1_440;

/**
 * Primary: Amp Free in dollars (used of the total, full again when the hourly replenishment has
 * paid back what is used, as the settings page's figures) or in percent; secondary: the
 * replenishment rate. Credits, workspace balances and a bonus are details. A remaining above the
 * total counts as nothing used.
 */
export function ampBalanceSnapshot(balance: AmpBalance, now: Date): Snapshot {
  const { primary, secondary } = freeMeters(balance.free, now);
  return { plan: balance.free ? "Amp Free" : null, primary, secondary, tertiary: null, details: details(balance) };
}

function freeMeters(free: AmpBalance["free"], now: Date): { primary: Meter | null; secondary: Meter | null } {
  if (free === null) return { primary: null, secondary: null };
  if (free.kind === "percent") {
    const usedPercent = 100 - free.remainingPercent; // 0..100: the text's reader refuses more
    return { primary: meter("Amp Free", { usedPercent, windowMinutes: DAY_MINUTES, note: "Resets daily" }), secondary: null };
  }
  const used = free.total - Math.min(free.remaining, free.total);
  // the allowance fills up in total / rate hours: that is its window
  const windowHours = free.hourly > 0 ? Math.max(1, Math.round(free.total / free.hourly)) : null;
  const web = ampSnapshot({ quota: free.total, used, hourlyReplenishment: free.hourly, windowHours }, now);
  return {
    primary: web.primary && { ...web.primary, unit: "USD" },
    secondary: meter("Replenishment", { note: `Replenishes ${dollars(free.hourly)}/hour` }),
  };
}

function details(balance: AmpBalance): Detail[] {
  const rows: Detail[] = [];
  if (balance.bonus) rows.push({ label: "Bonus", value: `+${balance.bonus.percent}% for ${balance.bonus.days} more days` });
  if (balance.credits !== null) rows.push({ label: "Individual credits", value: dollars(balance.credits) });
  for (const workspace of balance.workspaces) rows.push({ label: `Workspace ${workspace.name}`, value: dollars(workspace.remaining) });
  return rows;
}
