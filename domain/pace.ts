/**
 * Pace and run-out forecast of a meter: pure functions of the meter, the time and (optionally) its
 * kept readings. A meter has a pace only while it is inside a window that has run long enough to
 * tell: it has a reset time and a window length, is neither unlimited nor full, and the window began
 * at least MIN_ELAPSED ago and has not ended. Everything else (a reset further away than the window
 * is long, or already past: the upstream's clock or ours is off, or the reading is old) has none.
 */
import type { HistoryPoint, ProviderHistory } from "../ports/usage-history.js";
import { METER_ROLES } from "./meter.js";
import { sameWindow, windowOf, type MeterWindow } from "./meter-window.js";
import type { Meter, Pace, ProviderUsage } from "./usage-document.js";

export type PaceBasis = Pace["basis"];

/** No pace in the first 5 % of a window (at least a minute, at most an hour): one early burst is no rate. */
const MIN_ELAPSED_SHARE = 0.05;
const MIN_ELAPSED_MS = { floor: 60_000, ceiling: 3_600_000 };
/** The history basis looks at the readings of the last fifth of the window... */
const RECENT_SHARE = 0.2;
/** ...and needs at least three of them, spanning at least a tenth of the window. */
const MIN_RECENT_POINTS = 3;
const MIN_RECENT_SPAN_SHARE = 0.1;
/** A reading this many points below the one before means the meter was reset (early): what came before is another window. */
const DROP_PERCENT = 1;

type PacedMeter = Pick<Meter, "usedPercent" | "unlimited" | "resetsAt" | "windowMinutes">;

/** The meter's window and used percent when it has a pace at `now`; null otherwise. */
function paced(meter: PacedMeter, now: Date): { window: MeterWindow; used: number; nowMs: number } | null {
  if (meter.unlimited || meter.usedPercent === null || meter.usedPercent >= 100) return null;
  const window = windowOf(meter);
  const nowMs = now.getTime();
  if (!window || !Number.isFinite(nowMs) || nowMs >= window.endMs) return null;
  const minElapsed = Math.min(MIN_ELAPSED_MS.ceiling, Math.max(MIN_ELAPSED_MS.floor, window.lengthMs * MIN_ELAPSED_SHARE));
  if (nowMs - window.startMs < minElapsed) return null;
  return { window, used: meter.usedPercent, nowMs };
}

/** One decimal, and never -0. */
const round1 = (value: number) => Math.round(value * 10) / 10 || 0;

function elapsedShare({ window, nowMs }: { window: MeterWindow; nowMs: number }): number {
  return ((nowMs - window.startMs) / window.lengthMs) * 100;
}

/** The share of the window already gone, 0–100, one decimal (a 5-hour window that resets in 2 hours: 60). */
export function expectedPercent(meter: PacedMeter, now: Date): number | null {
  const p = paced(meter, now);
  return p ? round1(elapsedShare(p)) : null;
}

/** Used minus expected, one decimal: positive is ahead of pace (in deficit), negative behind (in reserve). */
export function deltaPercent(meter: PacedMeter, now: Date): number | null {
  const p = paced(meter, now);
  return p ? round1(p.used - round1(elapsedShare(p))) : null;
}

interface Rate {
  /** Percent per millisecond, never negative. */
  perMs: number;
  /** The reading the forecast starts from. */
  fromMs: number;
  fromPercent: number;
  basis: PaceBasis;
}

/**
 * The readings that give the recent rate: this window's (by reset time and by when they were read),
 * after the last drop, within the last fifth of the window; null when too few to trust.
 */
function recentPoints(meter: PacedMeter, p: { window: MeterWindow; nowMs: number }, history: readonly HistoryPoint[]) {
  const inWindow = history
    .map((point) => ({ ms: Date.parse(point.at), percent: point.usedPercent, resetsAt: point.resetsAt }))
    .filter(
      (point): point is { ms: number; percent: number; resetsAt: string | null } =>
        point.percent !== null &&
        point.ms >= p.window.startMs &&
        point.ms <= p.nowMs &&
        sameWindow(point.resetsAt, meter.resetsAt, meter.windowMinutes),
    )
    .sort((a, b) => a.ms - b.ms);
  let since = 0;
  inWindow.forEach((point, i) => {
    const before = inWindow[i - 1];
    if (before && point.percent < before.percent - DROP_PERCENT) since = i;
  });
  const recent = inWindow.slice(since).filter((point) => point.ms >= p.nowMs - p.window.lengthMs * RECENT_SHARE);
  const first = recent[0];
  const last = recent.at(-1);
  if (!first || !last || recent.length < MIN_RECENT_POINTS || last.ms - first.ms < p.window.lengthMs * MIN_RECENT_SPAN_SHARE) return null;
  return { first, last };
}

function rateOf(meter: PacedMeter, p: { window: MeterWindow; used: number; nowMs: number }, history: readonly HistoryPoint[]): Rate {
  const recent = recentPoints(meter, p, history);
  if (recent) {
    const { first, last } = recent;
    return {
      perMs: Math.max(0, (last.percent - first.percent) / (last.ms - first.ms)),
      fromMs: last.ms,
      fromPercent: last.percent,
      basis: "history",
    };
  }
  return { perMs: p.used / (p.nowMs - p.window.startMs), fromMs: p.nowMs, fromPercent: p.used, basis: "window" };
}

/** Where the rate comes from: "history" with enough recent readings in this window, else "window" (used ÷ elapsed). */
export function basis(meter: PacedMeter, now: Date, history: readonly HistoryPoint[] = []): PaceBasis | null {
  const p = paced(meter, now);
  return p ? rateOf(meter, p, history).basis : null;
}

/** When the meter reaches 100 % at the current rate, to the second, if that comes before the reset; else null. */
export function runsOutAt(meter: PacedMeter, now: Date, history: readonly HistoryPoint[] = []): string | null {
  const p = paced(meter, now);
  return p ? runOut(p.window, p.nowMs, rateOf(meter, p, history)) : null;
}

/** Whether the meter lasts to its reset at the current rate; null when it has no pace. */
export function lastsToReset(meter: PacedMeter, now: Date, history: readonly HistoryPoint[] = []): boolean | null {
  const p = paced(meter, now);
  return p ? runOut(p.window, p.nowMs, rateOf(meter, p, history)) === null : null;
}

function runOut(window: MeterWindow, nowMs: number, rate: Rate): string | null {
  if (!(rate.perMs > 0)) return null;
  // a forecast from older readings may fall in the past: the meter runs out any moment now
  const atMs = Math.max(nowMs, rate.fromMs + (100 - rate.fromPercent) / rate.perMs);
  return atMs < window.endMs ? new Date(Math.floor(atMs / 1000) * 1000).toISOString() : null;
}

/** The meter's pace at `now`, from its kept readings when there are enough; null when it has none (see the top). */
export function paceOf(meter: PacedMeter, now: Date, history: readonly HistoryPoint[] = []): Pace | null {
  const p = paced(meter, now);
  if (!p) return null;
  const rate = rateOf(meter, p, history);
  const at = runOut(p.window, p.nowMs, rate);
  const expected = round1(elapsedShare(p));
  return {
    expectedPercent: expected,
    deltaPercent: round1(p.used - expected),
    runsOutAt: at,
    lastsToReset: at === null,
    basis: rate.basis,
  };
}

/** The provider's meters with their pace at `now` (from its kept readings when given); a meter without one has no `pace` field. */
export function withPace<T extends Pick<ProviderUsage, "primary" | "secondary" | "tertiary">>(
  usage: T,
  now: Date,
  history: ProviderHistory | null = null,
): T {
  const paced = { ...usage };
  for (const role of METER_ROLES) {
    const meter = usage[role];
    if (!meter) continue;
    const { pace: _old, ...rest } = meter;
    const pace = paceOf(meter, now, history?.meters.find((m) => m.meter === role)?.points ?? []);
    paced[role] = pace ? { ...rest, pace } : rest;
  }
  return paced;
}
