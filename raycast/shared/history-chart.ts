/**
 * A chart of a meter's kept readings for the list's detail pane: an SVG (as a data URI, which
 * Raycast's markdown shows as an image) of the used percent over the meter's current window, with
 * the line usage would follow on pace and the run-out forecast. Pure; no text inside the picture,
 * so nothing depends on the fonts of whatever draws it (the legend is markdown under it).
 */
import { sameWindow, windowOf } from "../../domain/meter-window.js";
import type { Meter } from "../../domain/usage-document.js";
import { meterTone } from "../../presentation/severity.js";
import type { HistoryPoint, MeterHistory } from "../../ports/usage-history.js";
import { TONE_HEX } from "./icons.js";

/** The picture's size in points: about the width of the detail pane's text. */
export const CHART = { width: 400, height: 72, inset: 5 };
/** A meter without a window shows its readings of the last week at most. */
const NO_WINDOW_SPAN_MS = 7 * 86_400_000;
const GRID = "#8E8E93";

export interface HistoryChart {
  /** The SVG's markup. */
  svg: string;
  /** `![…](data:image/svg+xml;base64,…)`, and a legend line for the dashed and dotted lines, for the detail pane. */
  markdown: string;
}

interface Plotted {
  ms: number;
  percent: number;
}

/**
 * The chart of `meter` from its kept readings, or null until two readings of its current window
 * (or, without a window, of its last segment in the last week) with a used percent are a pixel apart.
 */
export function historyChart(meter: Meter, history: MeterHistory | undefined, now: Date): HistoryChart | null {
  if (!history || meter.unlimited) return null;
  const nowMs = now.getTime();
  const window = windowOf(meter);
  const points = readingsToPlot(meter, history.points, nowMs);
  const first = points[0];
  if (!first || points.length < 2) return null;
  const fromMs = window ? window.startMs : first.ms;
  const toMs = window ? window.endMs : Math.max(nowMs, (points.at(-1) as Plotted).ms);
  if (!(toMs > fromMs)) return null;

  const { width: w, height: h, inset } = CHART;
  const x = (ms: number) => round(inset + ((Math.min(toMs, Math.max(fromMs, ms)) - fromMs) / (toMs - fromMs)) * (w - 2 * inset));
  const y = (percent: number) => round(h - inset - (Math.min(100, Math.max(0, percent)) / 100) * (h - 2 * inset));
  const tone = TONE_HEX[meterTone(meter)];
  const drawn = columns(points, x);
  // readings a pixel apart are one reading: no line to draw yet
  if (drawn.length < 2) return null;
  const line = drawn.map((p) => `${p.x},${y(p.percent)}`);
  const end = drawn.at(-1)!;
  const parts = [
    `<rect x="0.5" y="0.5" width="${w - 1}" height="${h - 1}" rx="6" fill="none" stroke="${GRID}" stroke-opacity="0.35"/>`,
    `<line x1="${inset}" y1="${y(50)}" x2="${w - inset}" y2="${y(50)}" stroke="${GRID}" stroke-opacity="0.25" stroke-dasharray="2 4"/>`,
  ];
  if (window)
    parts.push(
      `<line x1="${x(window.startMs)}" y1="${y(0)}" x2="${x(window.endMs)}" y2="${y(100)}" stroke="${GRID}" stroke-opacity="0.7" stroke-width="1.2" stroke-dasharray="5 4"/>`,
    );
  if (nowMs > fromMs && nowMs < toMs)
    parts.push(`<line x1="${x(nowMs)}" y1="${inset}" x2="${x(nowMs)}" y2="${h - inset}" stroke="${GRID}" stroke-opacity="0.45"/>`);
  const baseline = y(0);
  parts.push(
    `<path d="M${drawn[0]!.x},${baseline} L${line.join(" L")} L${end.x},${baseline} Z" fill="${tone}" fill-opacity="0.18"/>`,
    `<polyline points="${line.join(" ")}" fill="none" stroke="${tone}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"/>`,
  );
  const runsOutAt = meter.pace?.runsOutAt ?? null;
  if (runsOutAt !== null) {
    const outMs = Date.parse(runsOutAt);
    parts.push(
      `<line x1="${end.x}" y1="${y(end.percent)}" x2="${x(outMs)}" y2="${y(100)}" stroke="${TONE_HEX.critical}" stroke-width="1.6" stroke-dasharray="2 3" stroke-linecap="round"/>`,
      `<circle cx="${x(outMs)}" cy="${y(100)}" r="3" fill="${TONE_HEX.critical}"/>`,
    );
  }
  parts.push(`<circle cx="${end.x}" cy="${y(end.percent)}" r="3" fill="${tone}"/>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${parts.join("")}</svg>`;
  const legend = [...(window ? ["dashed: on pace"] : []), ...(runsOutAt !== null ? ["dotted: when it runs out"] : [])].join(" · ");
  const alt = window ? `${meter.label} since its window began` : `${meter.label}, as last read`;
  const image = `![${alt}](${svgDataUri(svg)})`;
  return { svg, markdown: legend ? `${image}\n\n_${legend.charAt(0).toUpperCase()}${legend.slice(1)}_` : image };
}

/** An SVG as a base64 data URI: no parenthesis or space left to end a markdown link early. */
export function svgDataUri(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`;
}

/**
 * The readings to draw, oldest first: with a window, those read in it (since it began, until now,
 * with its reset time); without one, the last segment's of the last week.
 */
function readingsToPlot(meter: Meter, points: readonly HistoryPoint[], nowMs: number): Plotted[] {
  const window = windowOf(meter);
  const latest = points.at(-1)?.segment;
  const kept = points.filter((point) => {
    if (point.usedPercent === null) return false;
    const ms = Date.parse(point.at);
    if (!Number.isFinite(ms) || ms > nowMs) return false;
    if (window) return ms >= window.startMs && sameWindow(point.resetsAt, meter.resetsAt, meter.windowMinutes);
    return point.segment === latest && ms >= nowMs - NO_WINDOW_SPAN_MS;
  });
  return kept.map((point) => ({ ms: Date.parse(point.at), percent: point.usedPercent as number })).sort((a, b) => a.ms - b.ms);
}

/** One point per horizontal pixel at most (its highest reading), so a long history stays a small picture. */
function columns(points: readonly Plotted[], x: (ms: number) => number): { x: number; percent: number }[] {
  const byColumn = new Map<number, number>();
  for (const point of points) {
    const column = Math.round(x(point.ms));
    byColumn.set(column, Math.max(byColumn.get(column) ?? -Infinity, point.percent));
  }
  return [...byColumn].sort(([a], [b]) => a - b).map(([column, percent]) => ({ x: column, percent }));
}

const round = (value: number) => Math.round(value * 10) / 10;
