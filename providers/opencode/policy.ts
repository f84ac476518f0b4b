import { afterSeconds } from "../../domain/coerce.js";
import { meter } from "../../domain/meter.js";
import type { Snapshot } from "../../domain/usage-document.js";

/** One usage window of an OpenCode subscription. */
export interface OpenCodeWindow {
  usedPercent: number;
  /** Seconds until the window resets (`resetInSec`), when the answer gives them. */
  resetInSec: number | null;
  /** An absolute reset time, when the answer gives one instead. */
  resetAt: string | null;
}

export interface OpenCodeReading {
  workspaceId: string;
  rolling: OpenCodeWindow;
  weekly: OpenCodeWindow;
}

const resetOf = (window: OpenCodeWindow, now: Date) => (window.resetInSec !== null ? afterSeconds(now, window.resetInSec) : window.resetAt);

/** Primary: the rolling 5-hour window; secondary: the weekly one; the workspace read is named in the details. */
export function opencodeSnapshot(reading: OpenCodeReading, now: Date): Snapshot {
  const { rolling, weekly } = reading;
  return {
    plan: null,
    primary: meter("5-hour", { usedPercent: rolling.usedPercent, resetsAt: resetOf(rolling, now), windowMinutes: 300 }),
    secondary: meter("Weekly", { usedPercent: weekly.usedPercent, resetsAt: resetOf(weekly, now), windowMinutes: 10_080 }),
    tertiary: null,
    details: [{ label: "Workspace", value: reading.workspaceId }],
  };
}
