import { monthMinutesBefore } from "../../domain/calendar-month.js";
import { fromEpochMillis, overQuotaNote } from "../../domain/coerce.js";
import { parseError } from "../../domain/errors.js";
import { meter, percent } from "../../domain/meter.js";
import { advice } from "../../domain/remedy.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";
import { compareText } from "../../domain/order.js";
import { readableAmount } from "../../domain/number-text.js";

/** One entry of `data.limits`: a TOKENS_LIMIT or CREDIT_LIMIT (a usage window) or a TIME_LIMIT (MCP calls). */
export interface ZaiLimit {
  type: string;
  /** Window unit code: 1 day, 3 hour, 5 minute, 6 week. */
  unit: number;
  /** Window length in units. */
  number: number;
  /** The server's own percentage used, for when the counters are missing. */
  percentage: number;
  /** The limit (total) of the window. */
  usage?: number | undefined;
  currentValue?: number | undefined;
  remaining?: number | undefined;
  /** Epoch milliseconds. */
  nextResetTime?: number | undefined;
  usageDetails?: { modelCode: string; usage: number }[] | undefined;
}

export interface ZaiReading {
  limits: ZaiLimit[];
  plan: string | null;
}

/** The usage windows of a Coding Plan, by type: what they count. */
const WINDOW_KINDS = new Map<string, { label: string; unit: string }>([
  ["TOKENS_LIMIT", { label: "Tokens", unit: "tokens" }],
  ["CREDIT_LIMIT", { label: "Credits", unit: "credits" }],
]);
const UNIT_MINUTES: Record<number, number> = { 1: 1440, 3: 60, 5: 1, 6: 10080 };
const UNIT_WORDS: Record<number, string> = { 1: "day", 3: "hour", 5: "minute", 6: "week" };
const SINGLE_WINDOW_NAMES: Record<number, string> = { 1: "Daily", 3: "Hourly", 6: "Weekly" };
/** Model breakdowns beyond this are counted, not listed (the list is upstream text). */
const MAX_MODELS = 12;

/**
 * The shortest usage window is the primary (the spec's tokens limit is the session window), the
 * longest the secondary; windows in between and, beside two windows, the MCP bucket go to details.
 */
export function zaiSnapshot(reading: ZaiReading): Snapshot {
  const windows = reading.limits.filter((limit) => WINDOW_KINDS.has(limit.type)).sort(byWindowLength);
  // When several MCP entries arrive, the last one wins (as the real client does).
  const mcp = reading.limits.findLast((limit) => limit.type === "TIME_LIMIT");
  const details: Detail[] = [];
  const plan = reading.plan;

  if (windows.length === 0) {
    if (!mcp) {
      throw parseError(
        "Failed to parse z.ai response: no TOKENS_LIMIT, CREDIT_LIMIT or TIME_LIMIT entry in data.limits",
        advice("z.ai reported no quota window: the key may not belong to an active GLM Coding Plan, or the API changed."),
      );
    }
    return { plan, primary: zaiMeter("MCP", mcp, details), secondary: null, tertiary: null, details };
  }
  const [shortest, ...longer] = windows as [ZaiLimit, ...ZaiLimit[]];
  const longest = longer.pop();
  const primary = zaiMeter(WINDOW_KINDS.get(shortest.type)!.label, shortest, details);
  if (!longest) {
    const secondary = mcp ? zaiMeter("MCP", mcp, details) : null;
    return { plan, primary, secondary, tertiary: null, details };
  }
  const secondary = zaiMeter(windowName(longest), longest, details);
  for (const limit of longer) details.push(summary(windowName(limit), limit));
  if (mcp) details.push(summary("MCP", mcp), ...modelBreakdown("MCP", mcp));
  return { plan, primary, secondary, tertiary: null, details };
}

function zaiMeter(label: string, limit: ZaiLimit, details: Detail[]): Meter {
  const { used, usedPercent } = zaiUsage(limit);
  const kind = WINDOW_KINDS.get(limit.type);
  const counts = countsText(limit);
  if (counts) details.push({ label, value: counts });
  // past the quota the meter is full; without counts, the server's percentage says by how much
  const over = counts ? null : overQuotaNote(limit.percentage);
  if (over) details.push({ label, value: over });
  details.push(...modelBreakdown(label, limit));
  const resetsAt = fromEpochMillis(limit.nextResetTime);
  return meter(label, {
    usedPercent,
    used,
    limit: limit.usage !== undefined && limit.usage > 0 ? limit.usage : null,
    unit: kind?.unit ?? "calls",
    resetsAt,
    // the MCP bucket's monthly allowance: the calendar month up to its reset
    windowMinutes: isMonthlyMcp(limit) ? monthMinutesBefore(resetsAt) : windowMinutes(limit),
    note: windowLabel(limit),
  });
}

/** A bucket that has no meter of its own, in one line: percent, counts, window, reset. */
function summary(label: string, limit: ZaiLimit): Detail {
  const resetsAt = fromEpochMillis(limit.nextResetTime);
  const parts = [
    // past the quota, the server's own figure: the bucket has no meter to be full
    `${limit.percentage > 100 ? limit.percentage : zaiUsage(limit).usedPercent}% used`,
    countsText(limit),
    windowLabel(limit),
    resetsAt ? `resets ${resetsAt}` : null, // an ISO time: each view writes it as people read times
  ];
  return { label, value: parts.filter((part) => part !== null).join(", ") };
}

/** `23.5M / 80M (56.5M remaining)` when all three counters are present. */
function countsText(limit: ZaiLimit): string | null {
  if (limit.currentValue === undefined || limit.usage === undefined || limit.remaining === undefined) return null;
  // written as the meter writes its quantity: one rounding in the meter and its detail
  return `${readableAmount(limit.currentValue)} / ${readableAmount(limit.usage)} (${readableAmount(limit.remaining)} remaining)`;
}

/** The per-model (MCP tool) usage, sorted case-insensitively by model. */
function modelBreakdown(label: string, limit: ZaiLimit): Detail[] {
  const models = limit.usageDetails ?? [];
  if (models.length === 0) return [];
  const sorted = [...models].sort((a, b) => compareText(a.modelCode.toLowerCase(), b.modelCode.toLowerCase()));
  const listed = sorted.slice(0, MAX_MODELS).map((d) => `${d.modelCode}: ${d.usage}`);
  if (sorted.length > MAX_MODELS) listed.push(`${sorted.length - MAX_MODELS} more`);
  return [{ label: `${label} details`, value: listed.join(", ") }];
}

/** used = limit - remaining (or currentValue, whichever is larger); else the server's percentage. */
function zaiUsage(limit: ZaiLimit): { used: number | null; usedPercent: number } {
  const total = limit.usage;
  if (total !== undefined && total > 0) {
    let used: number | undefined;
    if (limit.remaining !== undefined) used = Math.max(total - limit.remaining, limit.currentValue ?? -Infinity);
    else if (limit.currentValue !== undefined) used = limit.currentValue;
    if (used !== undefined) {
      // counts are never negative (the wire refuses them); more left than the limit is nothing used, and
      // a current value past the limit (over quota) stops at the limit, as z.ai's own client draws it
      const clamped = Math.min(total, Math.max(0, used));
      return { used: clamped, usedPercent: percent((clamped / total) * 100) };
    }
  }
  return { used: limit.currentValue ?? null, usedPercent: percent(limit.percentage) };
}

function windowMinutes(limit: ZaiLimit): number | null {
  const minutes = UNIT_MINUTES[limit.unit];
  return limit.number > 0 && minutes !== undefined ? limit.number * minutes : null;
}

/** Shortest first; a window of unknown length goes after every known one. */
function byWindowLength(a: ZaiLimit, b: ZaiLimit): number {
  return (windowMinutes(a) ?? Infinity) - (windowMinutes(b) ?? Infinity) || 0;
}

/** "5-hour tokens", "Weekly credits": a usage window named by its length. */
function windowName(limit: ZaiLimit): string {
  const kind = WINDOW_KINDS.get(limit.type)!;
  const word = UNIT_WORDS[limit.unit];
  if (!word || limit.number <= 0) return kind.label;
  const span = limit.number === 1 ? (SINGLE_WINDOW_NAMES[limit.unit] ?? `1-${word}`) : `${limit.number}-${word}`;
  return `${span} ${kind.unit}`;
}

function windowLabel(limit: ZaiLimit): string | null {
  const word = UNIT_WORDS[limit.unit];
  if (isMonthlyMcp(limit)) return "Monthly";
  if (!word || limit.number <= 0) return null;
  return `${limit.number} ${word}${limit.number === 1 ? "" : "s"} window`;
}

/** The MCP bucket is reported as "1 minute" (or with no usable length) but is monthly. */
function isMonthlyMcp(limit: ZaiLimit): boolean {
  const word = UNIT_WORDS[limit.unit];
  return limit.type === "TIME_LIMIT" && (!word || limit.number <= 0 || (limit.unit === 5 && limit.number === 1));
}
