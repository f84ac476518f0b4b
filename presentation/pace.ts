/**
 * How a meter's pace is written for people: the CLI's line under a meter, and the pieces Raycast's
 * list and menu bar put together ("+11%", "runs out in 1h 40m"). Pure; times against `now`.
 */
import type { Pace } from "../domain/usage-document.js";
import { formatCountdown, formatPercent } from "./format.js";
import type { Tone } from "./severity.js";

/** Under half a point either way reads as on pace. */
const ON_PACE = 0.5;

/** "12% ahead of pace", "8% in reserve", "on pace". */
export function paceDeltaText(pace: Pace): string {
  const points = Math.round(Math.abs(pace.deltaPercent));
  if (Math.abs(pace.deltaPercent) < ON_PACE || points === 0) return "on pace";
  return `${formatPercent(points)} ${pace.deltaPercent > 0 ? "ahead of pace" : "in reserve"}`;
}

/** "+11%", "−8%", "±0%": the delta, short (a menu-bar title). */
export function paceDeltaShort(pace: Pace): string {
  const points = Math.round(Math.abs(pace.deltaPercent));
  if (Math.abs(pace.deltaPercent) < ON_PACE || points === 0) return "±0%";
  return `${pace.deltaPercent > 0 ? "+" : "\u2212"}${points}%`;
}

/** "runs out in 1h 40m, 2h 20m before the reset", or "lasts to the reset". */
export function runOutText(pace: Pace, resetsAt: string | null, now: Date): string {
  if (pace.runsOutAt === null) return "lasts to the reset";
  const early = resetsAt ? `, ${formatCountdown(resetsAt, new Date(pace.runsOutAt))} before the reset` : "";
  return `runs out in ${formatCountdown(pace.runsOutAt, now)}${early}`;
}

/** The line under a meter: "12% ahead of pace · runs out in 1h 40m, 2h 20m before the reset". */
export function paceText(pace: Pace, resetsAt: string | null, now: Date): string {
  return `${paceDeltaText(pace)} · ${runOutText(pace, resetsAt, now)}`;
}

/** Red when it runs out before the reset, yellow when ahead of pace, green otherwise. */
export function paceTone(pace: Pace): Tone {
  if (pace.runsOutAt !== null) return "critical";
  return pace.deltaPercent >= ON_PACE ? "warning" : "normal";
}
