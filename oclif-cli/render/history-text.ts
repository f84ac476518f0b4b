import type { MeterHistory, ProviderHistory } from "../../ports/usage-history.js";
import { formatDateTime, formatPercent } from "../../presentation/format.js";
import { currentWindow, dailyPeaks, lastDays, overTime, sparkline } from "../../presentation/history.js";
import { toneOf } from "../../presentation/severity.js";
import type { Style } from "./style.js";
import { paint } from "./usage-text.js";

/** Slices of the window's sparkline, and days of the peaks' (at most). */
const WINDOW_WIDTH = 24;
const MAX_DAYS = 14;
const DAY_MS = 86_400_000;

/** `quotabar history`: per provider, one line per meter with its window as a sparkline and its peak per day. */
export function renderHistoryText(histories: readonly ProviderHistory[], names: (id: string) => string, s: Style, now: Date): string {
  if (histories.length === 0)
    return "No readings kept yet: each `quotabar` run and each `quotabar watch` refresh adds one per meter (kept 35 days).";
  return histories
    .map((history) => {
      const width = Math.max(0, ...history.meters.map((m) => m.label.length));
      const title = history.account ? `${names(history.provider)} · ${history.account}` : names(history.provider);
      return [s.bold(title), ...history.meters.map((m) => meterLine(m, width, s, now))].join("\n");
    })
    .join("\n\n");
}

function meterLine(meter: MeterHistory, width: number, s: Style, now: Date): string {
  const label = meter.label.padEnd(width);
  const window = currentWindow(meter).filter((p) => p.usedPercent !== null);
  const last = window.at(-1);
  if (!last) return `  ${label}  ${s.dim(`${meter.points.length} readings, none with a percent`)}`;
  const lastMs = Date.parse(last.at);
  const resetMs = last.resetsAt === null ? NaN : Date.parse(last.resetsAt);
  // the window from its start when its length is known, else from its first reading; up to now (or its reset)
  const fromMs =
    meter.windowMinutes !== null && Number.isFinite(resetMs) ? resetMs - meter.windowMinutes * 60_000 : Date.parse((window[0] ?? last).at);
  const toMs = Math.max(lastMs, Math.min(now.getTime(), Number.isFinite(resetMs) ? resetMs : Infinity));
  const percent = last.usedPercent as number;
  const spark = paint(toneOf(percent), s)(sparkline(overTime(window, fromMs, toMs, WINDOW_WIDTH)));
  const peaks = dailyPeaks(meter.points);
  const first = peaks[0];
  const days = first ? Math.min(MAX_DAYS, Math.floor((now.getTime() - Date.parse(first.day)) / DAY_MS) + 1) : 0;
  const highest = peaks.reduce((a, b) => (b.peak > a.peak ? b : a), peaks[0] ?? { day: "", peak: 0 });
  const daily =
    days > 0
      ? `${s.dim("daily peaks")} ${sparkline(lastDays(peaks, now, days))}  ${s.dim(`highest ${formatPercent(highest.peak)} on ${formatDateTime(`${highest.day}T00:00:00Z`).split(",")[0]}`)}`
      : "";
  return `  ${label}  ${spark}  ${formatPercent(percent).padStart(4)} · ${daily}`.trimEnd();
}
