/**
 * A meter's kept readings as people read them: a sparkline of its current window and its peak per
 * day (UTC). Pure; the CLI's `quotabar history` writes them, a chart may reuse the same points.
 */
import type { HistoryPoint, MeterHistory } from "../ports/usage-history.js";

const BLOCKS = "▁▂▃▄▅▆▇█";
const DAY_MS = 86_400_000;

/** One block per value, 0 % the lowest and 100 % the highest; a gap (null) is a space. */
export function sparkline(values: readonly (number | null)[]): string {
  return values.map((v) => (v === null ? " " : (BLOCKS[Math.min(7, Math.max(0, Math.floor((v / 100) * 8)))] as string))).join("");
}

/** The readings of the meter's latest window (its last segment), oldest first. */
export function currentWindow(meter: MeterHistory): HistoryPoint[] {
  const last = meter.points.at(-1);
  return last ? meter.points.filter((p) => p.segment === last.segment) : [];
}

/**
 * The used percent over [fromMs, toMs] in `width` equal slices of time: each slice's highest
 * reading, or the last one before it when it has none (usage holds between readings); null before
 * the first reading.
 */
export function overTime(points: readonly HistoryPoint[], fromMs: number, toMs: number, width: number): (number | null)[] {
  const span = Math.max(1, toMs - fromMs);
  const slices: (number | null)[] = Array.from({ length: width }, () => null);
  let held: number | null = null;
  let next = 0;
  const sorted = points.filter((p) => p.usedPercent !== null).sort((a, b) => a.at.localeCompare(b.at));
  for (let i = 0; i < width; i++) {
    const end = fromMs + (span * (i + 1)) / width;
    let peak: number | null = null;
    while (next < sorted.length && Date.parse((sorted[next] as HistoryPoint).at) <= end) {
      const value = (sorted[next] as HistoryPoint).usedPercent as number;
      if (Date.parse((sorted[next] as HistoryPoint).at) >= fromMs) peak = peak === null ? value : Math.max(peak, value);
      held = value;
      next++;
    }
    slices[i] = peak ?? held;
  }
  return slices;
}

/** The highest used percent of each UTC day that has a reading, oldest first. */
export function dailyPeaks(points: readonly HistoryPoint[]): { day: string; peak: number }[] {
  const peaks = new Map<string, number>();
  for (const p of points) {
    if (p.usedPercent === null) continue;
    const day = p.at.slice(0, 10);
    peaks.set(day, Math.max(peaks.get(day) ?? 0, p.usedPercent));
  }
  return [...peaks].sort(([a], [b]) => a.localeCompare(b)).map(([day, peak]) => ({ day, peak }));
}

/** The peaks of the last `days` days up to `now`'s, a gap (null) for a day without readings. */
export function lastDays(peaks: readonly { day: string; peak: number }[], now: Date, days: number): (number | null)[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10);
    return peaks.find((p) => p.day === day)?.peak ?? null;
  });
}
