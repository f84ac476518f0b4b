/**
 * A meter's pace as the list and the menu bar show it: the words of presentation/pace.ts, a tone,
 * and which of several meters is most at risk. Pure; times against the `now` passed in.
 */
import type { Meter } from "../../domain/usage-document.js";
import { formatCountdown } from "../../presentation/format.js";
import { paceDeltaShort, paceDeltaText, paceText, paceTone, runOutText } from "../../presentation/pace.js";
import type { Tone } from "../../presentation/severity.js";

export interface PaceView {
  /** "12% ahead of pace", "8% in reserve", "on pace" */
  delta: string;
  /** The same, as a line of its own: "12% ahead of pace", "On pace" */
  deltaLine: string;
  /** "+12%", "−8%", "±0%" */
  short: string;
  /** "runs out in 1h 40m, 2h 20m before the reset", "lasts to the reset" */
  runOut: string;
  /** The two together, as a line of its own: "12% ahead of pace · runs out in 1h 40m, 2h 20m before the reset", "On pace · lasts to the reset" */
  line: string;
  /** "1h 40m" when it runs out before the reset; null when it lasts. */
  runsOutIn: string | null;
  runsOutAt: string | null;
  tone: Tone;
  /** Where the rate comes from, for a tooltip. */
  basis: string;
}

const BASIS: Record<NonNullable<Meter["pace"]>["basis"], string> = {
  window: "At the average rate since the window began",
  history: "At the rate of the recent readings",
};

/** The meter's pace in words; null for a meter without one (no window, unlimited, full, or a window just begun). */
export function paceView(meter: Meter, now: Date): PaceView | null {
  const pace = meter.pace;
  if (!pace) return null;
  const delta = paceDeltaText(pace);
  return {
    delta,
    deltaLine: capitalized(delta),
    short: paceDeltaShort(pace),
    runOut: runOutText(pace, meter.resetsAt, now),
    line: capitalized(paceText(pace, meter.resetsAt, now)),
    runsOutIn: pace.runsOutAt === null ? null : formatCountdown(pace.runsOutAt, now),
    runsOutAt: pace.runsOutAt,
    tone: paceTone(pace),
    basis: BASIS[pace.basis],
  };
}

/**
 * Of items holding meters, the one whose meter is most at risk by its pace: the one that runs out
 * soonest, else the one furthest ahead of pace. Null when no meter has a pace.
 */
export function mostAtRisk<T>(items: readonly T[], meterOf: (item: T) => Meter): T | null {
  let best: T | null = null;
  for (const item of items) {
    const pace = meterOf(item).pace;
    if (!pace) continue;
    if (best === null) {
      best = item;
      continue;
    }
    const other = meterOf(best).pace!;
    const runsOut = pace.runsOutAt === null ? Infinity : Date.parse(pace.runsOutAt);
    const otherRunsOut = other.runsOutAt === null ? Infinity : Date.parse(other.runsOutAt);
    if (runsOut < otherRunsOut || (runsOut === otherRunsOut && pace.deltaPercent > other.deltaPercent)) best = item;
  }
  return best;
}

/** "on pace" → "On pace" (the other wordings start with a number). */
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
