import { meter, percentOf } from "../../domain/meter.js";
import type { Meter } from "../../domain/usage-document.js";
import { usedOf, type KimiQuota } from "./policy-quota.js";

/** The spec's rate-limit window (5 hours), used when the response names no usable window. */
const SPEC_WINDOW_MINUTES = 300;
/** Kimi's docs give 200 requests per 5 hours for every tier; used when that window has no limit. */
const RATE_LIMIT_PER_SPEC_WINDOW = 200;

/** `limits[n].window`: a length in some unit (`TIME_UNIT_MINUTE`, `TIME_UNIT_HOUR`, `TIME_UNIT_DAY`, `TIME_UNIT_WEEK`). */
export interface KimiWindow {
  duration: number | null;
  unit: string | null;
}

export interface KimiRateLimit extends KimiQuota {
  window: KimiWindow | null;
}

const MINUTES_PER_UNIT: Readonly<Record<string, number>> = { MINUTE: 1, HOUR: 60, DAY: 24 * 60, WEEK: 7 * 24 * 60 };

/** The window's length in minutes; null for an unknown unit or a length that is not positive. */
export function windowMinutes(window: KimiWindow | null): number | null {
  if (!window || window.duration === null || window.unit === null || window.duration <= 0) return null;
  const unit = window.unit
    .trim()
    .toUpperCase()
    .replace(/^TIME_UNIT_/, "")
    .replace(/S$/, "");
  const factor = MINUTES_PER_UNIT[unit];
  return factor === undefined ? null : Math.round(window.duration * factor);
}

/** A window in whole hours when it divides, else in minutes: the label ("5-hour") and the text ("5 hours"). */
export function windowWords(minutes: number): { label: string; text: string } {
  const [count, unit] = minutes % 60 === 0 ? [minutes / 60, "hour"] : [minutes, "minute"];
  return { label: `${count}-${unit}`, text: `${count} ${unit}${count === 1 ? "" : "s"}` };
}

/** `limits[0]` as the secondary meter: "5-hour" unless the response names another window. */
export function rateLimitMeter(rate: KimiRateLimit): Meter {
  const minutes = windowMinutes(rate.window) ?? SPEC_WINDOW_MINUTES;
  const fallbackLimit = minutes === SPEC_WINDOW_MINUTES ? RATE_LIMIT_PER_SPEC_WINDOW : null;
  const limit = rate.limit !== null && rate.limit > 0 ? rate.limit : fallbackLimit;
  const used = usedOf(rate, limit);
  const words = windowWords(minutes);
  return meter(words.label, {
    usedPercent: limit === null ? null : (percentOf(used, limit) ?? 0),
    used,
    limit,
    unit: "requests",
    resetsAt: rate.resetsAt,
    windowMinutes: minutes,
    note: limit === null ? `${used} requests in this ${words.text} window` : `${limit} requests per ${words.text}`,
  });
}
