import type { Meter } from "./usage-document.js";

/** A meter's current window, in epoch milliseconds: it started `lengthMs` before it resets. */
export interface MeterWindow {
  startMs: number;
  endMs: number;
  lengthMs: number;
}

/** The most two readings of one window may disagree on its reset time (a reset given as "in N seconds" drifts a little). */
const MAX_RESET_DRIFT_MS = 10 * 60_000;

/** The window of a meter with a reset time and a window length; null without either. */
export function windowOf(meter: Pick<Meter, "resetsAt" | "windowMinutes">): MeterWindow | null {
  if (meter.resetsAt === null || meter.windowMinutes === null || !(meter.windowMinutes > 0)) return null;
  const endMs = Date.parse(meter.resetsAt);
  if (!Number.isFinite(endMs)) return null;
  const lengthMs = meter.windowMinutes * 60_000;
  return { startMs: endMs - lengthMs, endMs, lengthMs };
}

/**
 * How far apart two reset times of one window may be: 10 minutes, or a tenth of a shorter window.
 * Further apart, the window changed (it reset, early or on time, or the provider moved it).
 */
export function resetDriftMs(windowMinutes: number | null): number {
  return windowMinutes !== null && windowMinutes > 0 ? Math.min(MAX_RESET_DRIFT_MS, windowMinutes * 6_000) : MAX_RESET_DRIFT_MS;
}

/** Whether two readings' reset times belong to the same window (two meters without a reset time share one). */
export function sameWindow(a: string | null, b: string | null, windowMinutes: number | null): boolean {
  if (a === null || b === null) return a === b;
  const drift = Math.abs(Date.parse(a) - Date.parse(b));
  return Number.isFinite(drift) && drift <= resetDriftMs(windowMinutes);
}
