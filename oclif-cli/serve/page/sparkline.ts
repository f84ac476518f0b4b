/**
 * A meter's sparkline on the page: its used percent over its current window so far (from the
 * readings serve kept, /history), an area under a line, with the even pace as a dashed diagonal
 * where the window is known. Drawn as SVG elements, no markup; the slices come from presentation/history.ts
 * as `quotabar history` draws its text sparkline.
 */
import { windowOf } from "../../../domain/meter-window.js";
import type { Meter } from "../../../domain/usage-document.js";
import type { MeterHistory } from "../../../ports/usage-history.js";
import { formatPercent } from "../../../presentation/format.js";
import { overTime } from "../../../presentation/history.js";
import { svg } from "./dom.js";

const WIDTH = 120;
const HEIGHT = 28;
const SLICES = 60;

/** The sparkline, or null until two readings of the window have a used percent. */
export function sparkline(meter: Meter, history: MeterHistory | undefined, now: Date): SVGElement | null {
  if (!history || meter.unlimited) return null;
  const readings = history.points.filter((p) => p.usedPercent !== null);
  const first = readings[0];
  const last = readings.at(-1);
  if (!first || !last || readings.length < 2) return null;
  // the window so far: from its start (or the first reading) to now, so the line ends where the meter is
  const window = windowOf(meter);
  const fromMs = window ? window.startMs : Date.parse(first.at);
  const toMs = Math.max(Date.parse(last.at), window ? Math.min(now.getTime(), window.endMs) : now.getTime());
  if (!(toMs > fromMs)) return null;
  const values = overTime(readings, fromMs, toMs, SLICES);
  const x = (i: number) => round((i / (SLICES - 1)) * WIDTH);
  const y = (percent: number) => round(HEIGHT - 1 - (Math.min(100, Math.max(0, percent)) / 100) * (HEIGHT - 2));
  const drawn = values.flatMap((v, i) => (v === null ? [] : [[x(i), y(v)] as const]));
  const line = drawn.map(([px, py]) => `${px},${py}`).join(" ");
  const [firstX] = drawn[0] as readonly [number, number];
  const [lastX] = drawn.at(-1) as readonly [number, number];
  const area = `M${firstX},${HEIGHT} L${line.replaceAll(" ", " L")} L${lastX},${HEIGHT} Z`;
  // on pace: nothing used when the window began, as much as time has gone by now
  const onPace = window ? ((toMs - window.startMs) / window.lengthMs) * 100 : null;
  const low = Math.min(...readings.map((p) => p.usedPercent as number));
  const label = `Used in this window: ${formatPercent(low)} to ${formatPercent(last.usedPercent as number)}, ${readings.length} readings`;
  return svg(
    "svg",
    { class: "spark", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: "none", role: "img", "aria-label": label },
    svg("title", {}, label),
    onPace === null ? null : svg("line", { class: "spark-pace", x1: 0, y1: y(0), x2: WIDTH, y2: y(onPace) }),
    svg("path", { class: "spark-area", d: area }),
    svg("polyline", { class: "spark-line", points: line }),
  );
}

const round = (n: number) => Math.round(n * 10) / 10;
