/**
 * How quotabar writes numbers, quantities and times for people: the one place the CLI's text view
 * and Raycast's view models take their wording from. Pure; times against the `now` passed in.
 */
import type { Meter } from "../domain/usage-document.js";
import { dollars, readableAmount } from "../domain/number-text.js";

/**
 * "37%", "57.3%" (with `decimals`), "<1%" and "99%": never a rounded-down 0 % when something was
 * used, never a rounded-up 100 % that is not full.
 */
export function formatPercent(percent: number, decimals = 0): string {
  const step = 10 ** -decimals;
  if (percent > 0 && percent < step / 2) return `<${step}%`;
  if (percent < 100 && percent >= 100 - step / 2) return `${(100 - step).toFixed(decimals)}%`;
  return `${Number.isInteger(percent) ? percent : Number(percent.toFixed(decimals))}%`;
}

/** 1,215 · 112.5 · 450K · 23.5M: readable amounts (providers' details use the same, from domain/). */
export const formatAmount = readableAmount;

/** "$22.42 / $60.00", "1,215 / 1,500 credits", "312 calls used"; null when the provider gave no quantity. */
export function formatQuantity(meter: Meter): string | null {
  if (meter.used === null && meter.limit === null) return null;
  if (meter.unit === "USD") {
    if (meter.used !== null && meter.limit !== null) return `${dollars(meter.used)} / ${dollars(meter.limit)}`;
    return dollars((meter.used ?? meter.limit) as number);
  }
  const unit = meter.unit ? ` ${meter.unit}` : "";
  if (meter.used !== null && meter.limit !== null) return `${formatAmount(meter.used)} / ${formatAmount(meter.limit)}${unit}`;
  if (meter.used !== null) return `${formatAmount(meter.used)}${unit} used`;
  return `limit ${formatAmount(meter.limit as number)}${unit}`;
}

/** "3d 4h", "2h 05m", "12m", "45s": the countdown to an absolute time. */
export function formatCountdown(at: string, now: Date): string {
  const ms = new Date(at).getTime() - now.getTime();
  if (!Number.isFinite(ms)) return "";
  if (ms <= 0) return "now";
  const totalMinutes = Math.floor(ms / 60_000);
  const days = Math.floor(totalMinutes / 1440);
  const hours = Math.floor((totalMinutes % 1440) / 60);
  const minutes = totalMinutes % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${String(minutes).padStart(2, "0")}m`;
  if (totalMinutes > 0) return `${minutes}m`;
  return `${Math.max(1, Math.floor(ms / 1000))}s`;
}

/** "resets in 3d 4h", or "reset due" once the time has passed; null without a reset time. */
export function resetText(meter: Meter, now: Date): string | null {
  if (!meter.resetsAt) return null;
  return new Date(meter.resetsAt).getTime() <= now.getTime() ? "reset due" : `resets in ${formatCountdown(meter.resetsAt, now)}`;
}

/** "just now", "5m ago", "2h ago", "3d ago". */
export function formatAge(iso: string, now: Date): string {
  const ms = now.getTime() - new Date(iso).getTime();
  if (!Number.isFinite(ms)) return "";
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

// English month names without ICU (see domain/number-text.ts for why)
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Dec 1, 00:00 UTC": an absolute time, for tooltips and details. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  const month = MONTHS[date.getUTCMonth()];
  return `${month} ${date.getUTCDate()}, ${date.toISOString().slice(11, 16)} UTC`;
}

const ISO_TIME = /\b\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?(?:Z|[+-]\d\d:\d\d)/g;

/** Text with every ISO-8601 time in it written as a person reads it ("Nov 24, 09:15 UTC"). */
export function readableTimes(text: string): string {
  return text.replace(ISO_TIME, (iso) => (Number.isNaN(Date.parse(iso)) ? iso : formatDateTime(iso)));
}

/** `██████░░░░░░░░░░░░░░`: a text bar. */
export function textBar(percent: number, width = 20): string {
  const filled = Math.round((Math.min(100, Math.max(0, percent)) / 100) * width);
  return "█".repeat(filled) + "░".repeat(width - filled);
}

/** `text` without trailing characters from `chars` (a loop: linear on any input). */
function trimEnd(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1] as string)) end--;
  return text.slice(0, end);
}

/** At most `max` characters, cut at a word, with an ellipsis. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${trimEnd(space > max / 2 ? cut.slice(0, space) : cut, " \t\n,;:.")}…`;
}
