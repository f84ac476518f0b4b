import { afterSeconds, overQuotaNote } from "../../domain/coerce.js";
import { monthMinutesBefore } from "../../domain/calendar-month.js";
import { meter } from "../../domain/meter.js";
import { dollars } from "../../domain/number-text.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

/** One usage window of an OpenCode subscription. */
export interface OpenCodeWindow {
  usedPercent: number;
  /** Seconds until the window resets (`resetInSec`), when the answer gives them. */
  resetInSec: number | null;
  /** An absolute reset time, when the answer gives one instead. */
  resetAt: string | null;
}

/** The subscription's windows: rolling 5 hours and weekly always, monthly for OpenCode Go. */
export interface SubscriptionWindows {
  rolling: OpenCodeWindow;
  weekly: OpenCodeWindow;
  monthly: OpenCodeWindow | null;
}

/** The workspace's billing (`queryBillingInfo`), in US dollars. */
export interface OpenCodeBilling {
  /** The prepaid balance; negative when overspent. */
  balance: number;
  /** The workspace's monthly spending limit, when one is set. */
  monthlyLimit: number | null;
  /** Spent this month, when the console has counted it. */
  monthlyUsage: number | null;
  /** Auto-reload: off, or `amount` added when the balance falls below `trigger`; null when the answer does not say. */
  reload: { amount: number; trigger: number } | "off" | null;
}

export interface OpenCodeReading {
  workspaceId: string;
  /** Null for a workspace without a subscription (pay as you go: the billing alone). */
  windows: SubscriptionWindows | null;
  /** Null when the billing could not be read (it is asked best effort). */
  billing: OpenCodeBilling | null;
}

const WEEK_MINUTES = 10_080;

const resetOf = (window: OpenCodeWindow, now: Date) => (window.resetInSec !== null ? afterSeconds(now, window.resetInSec) : window.resetAt);

/**
 * Primary: the rolling 5-hour window; secondary: the weekly one; tertiary: Go's monthly one. A
 * monthly spending limit is a meter in the first free place (primary for a workspace without a
 * subscription), else a detail; the balance and auto-reload are details, after the workspace.
 */
export function opencodeSnapshot(reading: OpenCodeReading, now: Date): Snapshot {
  const { windows, billing } = reading;
  const meters: Meter[] = windows ? subscriptionMeters(windows, now) : [];
  const spend = billing ? spendMeter(billing) : null;
  if (spend && meters.length < 3) meters.push(spend);
  const details: Detail[] = [{ label: "Workspace", value: reading.workspaceId }];
  if (billing) details.push(...billingDetails(billing, spend !== null && meters.includes(spend)));
  return { plan: null, primary: meters[0] ?? null, secondary: meters[1] ?? null, tertiary: meters[2] ?? null, details };
}

function subscriptionMeters({ rolling, weekly, monthly }: SubscriptionWindows, now: Date): Meter[] {
  const meters = [
    meter("5-hour", {
      usedPercent: rolling.usedPercent,
      resetsAt: resetOf(rolling, now),
      windowMinutes: 300,
      note: overQuotaNote(rolling.usedPercent),
    }),
    meter("Weekly", {
      usedPercent: weekly.usedPercent,
      resetsAt: resetOf(weekly, now),
      windowMinutes: WEEK_MINUTES,
      note: overQuotaNote(weekly.usedPercent),
    }),
  ];
  if (monthly) {
    const resetsAt = resetOf(monthly, now);
    // the month ending at the reset: the answer gives only how far away that is
    const windowMinutes = monthMinutesBefore(resetsAt);
    meters.push(meter("Monthly", { usedPercent: monthly.usedPercent, resetsAt, windowMinutes, note: overQuotaNote(monthly.usedPercent) }));
  }
  return meters;
}

/** Spent of the monthly limit; no meter without a limit, or before the console has counted any spend. */
function spendMeter({ monthlyLimit, monthlyUsage }: OpenCodeBilling): Meter | null {
  if (monthlyLimit === null || monthlyLimit <= 0 || monthlyUsage === null) return null;
  return meter("Monthly spend", { usedPercent: (monthlyUsage / monthlyLimit) * 100, used: monthlyUsage, limit: monthlyLimit, unit: "USD" });
}

function billingDetails(billing: OpenCodeBilling, spendShown: boolean): Detail[] {
  const rows: Detail[] = [
    { label: "Balance", value: billing.balance < 0 ? `${dollars(billing.balance)} (overspent)` : dollars(billing.balance) },
  ];
  if (billing.monthlyLimit !== null && !spendShown) {
    const spent = billing.monthlyUsage === null ? "" : `${dollars(billing.monthlyUsage)} of `;
    rows.push({ label: "Monthly limit", value: `${spent}${dollars(billing.monthlyLimit)}` });
  }
  if (billing.reload === "off") rows.push({ label: "Auto-reload", value: "Off" });
  else if (billing.reload)
    rows.push({ label: "Auto-reload", value: `${dollars(billing.reload.amount)} when below ${dollars(billing.reload.trigger)}` });
  return rows;
}
