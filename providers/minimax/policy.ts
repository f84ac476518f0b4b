import { afterMillis } from "../../domain/coerce.js";
import { meter, percent, percentUsedFromRemaining } from "../../domain/meter.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

/** One quota window of a lane: the rolling interval (5 hours) or the week. */
export interface MiniMaxWindow {
  /** `*_total_count`: prompts in the window. */
  total: number | null;
  /** `*_remaining_count`, else `*_usage_count`, which counts what is LEFT despite its name. */
  remaining: number | null;
  /** `*_remaining_percent` (today's answers); it wins over the counts. */
  remainingPercent: number | null;
  /** Window bounds, epoch seconds or milliseconds as sent. */
  startTime: number | null;
  endTime: number | null;
  /** Time left in the window as sent: milliseconds in practice, seconds in some answers (see remainsMillis). */
  remainsTime: number | null;
  /** Window length printed on the coding-plan page ("1,000 prompts / 5 hours"). */
  printedMinutes: number | null;
  /** Reset printed on the coding-plan page ("Resets in 4 min"), already absolute. */
  printedResetsAt: string | null;
}

/** One `model_remains` item: a model (or service) with its interval and, today, its weekly twin. */
export interface MiniMaxLane {
  model: string | null;
  interval: MiniMaxWindow;
  weekly: MiniMaxWindow | null;
}

/** One coding-plan reading, from the remains JSON or from the coding-plan page; at least one lane has usage. */
export interface MiniMaxReading {
  plan: string | null;
  lanes: MiniMaxLane[];
}

/** A window with nothing in it: what the page or an item leaves unsaid. */
export const EMPTY_WINDOW: MiniMaxWindow = {
  total: null,
  remaining: null,
  remainingPercent: null,
  startTime: null,
  endTime: null,
  remainsTime: null,
  printedMinutes: null,
  printedResetsAt: null,
};

/** Whether a window says how much is used: a remaining percent, or a positive total with what is left. */
export const hasUsage = (window: MiniMaxWindow) =>
  window.remainingPercent !== null || (window.total !== null && window.total > 0 && window.remaining !== null);

/** The coding plan's own lanes (`general`, `MiniMax-M*`, `m2.*`); an unnamed item is the older single-lane answer. */
export const isTextLane = (lane: MiniMaxLane) => lane.model === null || /^(?:general$|minimax-m\d|m2\.)/i.test(lane.model.trim());

/** The first text lane leads (its interval primary, its week secondary); the other lanes become details. */
export function minimaxSnapshot(reading: MiniMaxReading, now: Date): Snapshot {
  const lanes = [...reading.lanes.filter(isTextLane), ...reading.lanes.filter((lane) => !isTextLane(lane))];
  const [lead, ...others] = lanes;
  const weekly = lead?.weekly && hasUsage(lead.weekly) ? lead.weekly : null;
  return {
    plan: reading.plan,
    primary: lead ? windowMeter("Prompts", lead.interval, now) : null,
    secondary: weekly ? windowMeter("Weekly", weekly, now, WEEK_MINUTES) : null,
    tertiary: null,
    details: others.map(laneDetail),
  };
}

const WEEK_MINUTES = 7 * 24 * 60;

/** `namedMinutes`: the length the window's name implies (the week), for an answer without its times. */
function windowMeter(label: string, window: MiniMaxWindow, now: Date, namedMinutes: number | null = null): Meter {
  const total = window.total !== null && window.total > 0 ? window.total : null;
  // counts are never negative (the wire refuses them); more left than the total reads as nothing used
  const used = total !== null && window.remaining !== null ? Math.max(0, total - window.remaining) : null;
  const windowMinutes = windowOf(window) ?? window.printedMinutes ?? namedMinutes;
  return meter(label, {
    usedPercent: usedPercentOf(window),
    used,
    limit: total,
    unit: "prompts",
    resetsAt: resetOf(window, windowMinutes, now) ?? window.printedResetsAt,
    windowMinutes,
    note: noteOf(total, windowMinutes),
  });
}

/** The remaining percent when sent, else the counts; null when the window says neither. */
function usedPercentOf(window: MiniMaxWindow): number | null {
  if (window.remainingPercent !== null) return percentUsedFromRemaining(window.remainingPercent);
  if (window.total === null || window.total <= 0 || window.remaining === null) return null;
  return percent(((window.total - window.remaining) / window.total) * 100);
}

/** `speech-02-hd: 12% used · weekly 3% used`, for the lanes that are not the coding plan's. */
function laneDetail(lane: MiniMaxLane): Detail {
  const interval = usedPercentOf(lane.interval);
  const weekly = lane.weekly ? usedPercentOf(lane.weekly) : null;
  const parts = [interval === null ? null : `${interval}% used`, weekly === null ? null : `weekly ${weekly}% used`];
  return { label: lane.model ?? "Other", value: parts.filter((part) => part !== null).join(" · ") };
}

/** Epoch milliseconds (> 1e12) or seconds (> 1e9); anything smaller is not a time (so a duration is never taken for one). */
function epochMillis(value: number | null): number | null {
  if (value === null) return null;
  if (value > 1e12) return value;
  if (value > 1e9) return value * 1000;
  return null;
}

function windowOf(window: MiniMaxWindow): number | null {
  const start = epochMillis(window.startTime);
  const end = epochMillis(window.endTime);
  if (start === null || end === null) return null;
  const minutes = Math.trunc((end - start) / 60_000);
  return minutes > 0 ? minutes : null;
}

/** `remains_time` first, else a future `end_time` (the spec's order). */
function resetOf(window: MiniMaxWindow, windowMinutes: number | null, now: Date): string | null {
  const remains = window.remainsTime;
  const end = epochMillis(window.endTime);
  const future = end !== null && end > now.getTime() ? end : null;
  if (remains !== null && remains > 0) return afterMillis(now, remainsMillis(remains, windowMinutes, future, now));
  return future === null ? null : new Date(future).toISOString();
}

/**
 * MiniMax's longest window is a week, so a `remains_time` in seconds is at most 604,800: anything
 * larger is milliseconds, whatever else the answer says.
 */
export const MAX_REMAINS_SECONDS = 7 * 24 * 3600;

/**
 * The service sends milliseconds, some answers seconds. Above a week's seconds only milliseconds are
 * possible; at or below it (up to 10 minutes in milliseconds, a week in seconds) the value is settled
 * by a future end of the window (the reading that lands nearer to it), else it is seconds when, read
 * so, it still fits in the window (or no window is known).
 */
function remainsMillis(remains: number, windowMinutes: number | null, end: number | null, now: Date): number {
  if (remains > MAX_REMAINS_SECONDS) return remains;
  if (end !== null) {
    const left = end - now.getTime();
    return Math.abs(remains * 1000 - left) < Math.abs(remains - left) ? remains * 1000 : remains;
  }
  return windowMinutes === null || remains <= windowMinutes * 60 ? remains * 1000 : remains;
}

/** `1000 prompts / 5 hours`; either half alone when the other is unknown. */
function noteOf(total: number | null, windowMinutes: number | null): string | null {
  const window = windowMinutes === null ? null : windowText(windowMinutes);
  if (total !== null && window !== null) return `${total} prompts / ${window}`;
  if (total !== null) return `${total} prompts`;
  return window;
}

function windowText(minutes: number): string {
  const [count, unit] = minutes % 1440 === 0 ? [minutes / 1440, "day"] : minutes % 60 === 0 ? [minutes / 60, "hour"] : [minutes, "minute"];
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}
