import { afterMillis } from "../../domain/coerce.js";
import { meter, percent, percentUsedFromRemaining } from "../../domain/meter.js";
import type { Snapshot } from "../../domain/usage-document.js";

/** One coding-plan reading, from the remains JSON or from the coding-plan page. */
export interface MiniMaxReading {
  plan: string | null;
  /** `current_interval_total_count`: prompts in the window. */
  total: number | null;
  /** `current_interval_usage_count`, which counts what is LEFT despite its name. */
  remaining: number | null;
  /** `current_interval_remaining_percent` (newer responses), used when the counts are missing. */
  remainingPercent: number | null;
  /** Percent used printed on the coding-plan page ("25% Used"). */
  pageUsedPercent: number | null;
  /** Window bounds, epoch seconds or milliseconds as sent. */
  startTime: number | null;
  endTime: number | null;
  /** Time left in the window as sent (milliseconds in practice; see resetOf). */
  remainsTime: number | null;
  /** Window length printed on the page ("1,000 prompts / 5 hours"). */
  pageWindowMinutes: number | null;
  /** Reset printed on the page ("Resets in 4 min"), already absolute. */
  pageResetsAt: string | null;
}

export function minimaxSnapshot(reading: MiniMaxReading, now: Date): Snapshot {
  const total = reading.total !== null && reading.total > 0 ? reading.total : null;
  const used = total !== null && reading.remaining !== null ? Math.min(total, Math.max(0, total - reading.remaining)) : null;
  const usedPercent =
    used !== null && total !== null
      ? percent((used / total) * 100)
      : reading.remainingPercent !== null
        ? percentUsedFromRemaining(reading.remainingPercent)
        : (reading.pageUsedPercent ?? 0);
  const windowMinutes = windowOf(reading) ?? reading.pageWindowMinutes;
  const primary = meter("Prompts", {
    usedPercent,
    used,
    limit: total,
    unit: "prompts",
    resetsAt: resetOf(reading, windowMinutes, now) ?? reading.pageResetsAt,
    windowMinutes,
    note: noteOf(total, windowMinutes),
  });
  return { plan: reading.plan, primary, secondary: null, tertiary: null, details: [] };
}

/** Epoch milliseconds (> 1e12) or seconds (> 1e9); anything smaller is not a time (so a duration is never taken for one). */
function epochMillis(value: number | null): number | null {
  if (value === null) return null;
  if (value > 1e12) return value;
  if (value > 1e9) return value * 1000;
  return null;
}

function windowOf(reading: MiniMaxReading): number | null {
  const start = epochMillis(reading.startTime);
  const end = epochMillis(reading.endTime);
  if (start === null || end === null) return null;
  const minutes = Math.trunc((end - start) / 60_000);
  return minutes > 0 ? minutes : null;
}

/**
 * `remains_time` first, else a future `end_time`. The service sends milliseconds; MiniMax's own
 * client reads values up to 1e6 as seconds, so a small value is taken as milliseconds when,
 * read as seconds, it would outlast the whole window.
 */
function resetOf(reading: MiniMaxReading, windowMinutes: number | null, now: Date): string | null {
  const remains = reading.remainsTime;
  if (remains !== null && remains > 0) {
    const asSeconds = remains <= 1_000_000 && (windowMinutes === null || remains <= windowMinutes * 60);
    return afterMillis(now, asSeconds ? remains * 1000 : remains);
  }
  const end = epochMillis(reading.endTime);
  return end !== null && end > now.getTime() ? new Date(end).toISOString() : null;
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
