import { fromEpochMillis } from "../../domain/coerce.js";
import { meter, percent } from "../../domain/meter.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

/** One entry of `data.limits`: a TOKENS_LIMIT (the tokens window) or a TIME_LIMIT (MCP calls). */
export interface ZaiLimit {
  type: string;
  /** Window unit code: 1 day, 3 hour, 5 minute, 6 week. */
  unit: number;
  /** Window length in units. */
  number: number;
  /** The server's own percentage used, for when the counters are missing. */
  percentage: number;
  /** The limit (total) of the window. */
  usage?: number | undefined;
  currentValue?: number | undefined;
  remaining?: number | undefined;
  /** Epoch milliseconds. */
  nextResetTime?: number | undefined;
  usageDetails?: { modelCode: string; usage: number }[] | undefined;
}

export interface ZaiReading {
  limits: ZaiLimit[];
  plan: string | null;
}

const UNIT_MINUTES: Record<number, number> = { 1: 1440, 3: 60, 5: 1, 6: 10080 };
const UNIT_WORDS: Record<number, string> = { 1: "day", 3: "hour", 5: "minute", 6: "week" };

export function zaiSnapshot(reading: ZaiReading): Snapshot {
  // When several entries share a type, the last one wins (as the real client does).
  const byType = new Map(reading.limits.map((limit) => [limit.type, limit]));
  const tokens = byType.get("TOKENS_LIMIT");
  const time = byType.get("TIME_LIMIT");
  const details: Detail[] = [];

  let primary: Meter;
  let secondary: Meter | null = null;
  if (tokens) {
    primary = zaiMeter("Tokens", tokens, details);
    if (time) secondary = zaiMeter("MCP", time, details);
  } else if (time) {
    primary = zaiMeter("MCP", time, details);
  } else {
    primary = meter("Tokens", { usedPercent: 0 });
  }
  return { plan: reading.plan, primary, secondary, tertiary: null, details };
}

function zaiMeter(label: string, limit: ZaiLimit, details: Detail[]): Meter {
  const { used, usedPercent } = zaiUsage(limit);
  const isTokens = limit.type === "TOKENS_LIMIT";
  const minutes = UNIT_MINUTES[limit.unit];
  const window = windowLabel(limit);
  if (limit.currentValue !== undefined && limit.usage !== undefined && limit.remaining !== undefined) {
    details.push({ label, value: `${compact(limit.currentValue)} / ${compact(limit.usage)} (${compact(limit.remaining)} remaining)` });
  }
  if (limit.usageDetails && limit.usageDetails.length > 0) {
    const sorted = [...limit.usageDetails].sort((a, b) => a.modelCode.toLowerCase().localeCompare(b.modelCode.toLowerCase()));
    details.push({ label: `${label} details`, value: sorted.map((d) => `${d.modelCode}: ${d.usage}`).join(", ") });
  }
  return meter(label, {
    usedPercent,
    used,
    limit: limit.usage !== undefined && limit.usage > 0 ? limit.usage : null,
    unit: isTokens ? "tokens" : "calls",
    resetsAt: fromEpochMillis(limit.nextResetTime),
    windowMinutes: isTokens && limit.number > 0 && minutes !== undefined ? limit.number * minutes : null,
    note: window ?? (isTokens ? null : "Monthly"),
  });
}

/** used = limit - remaining (or currentValue, whichever is larger); else the server's percentage. */
function zaiUsage(limit: ZaiLimit): { used: number | null; usedPercent: number } {
  const total = limit.usage;
  if (total !== undefined && total > 0) {
    let used: number | undefined;
    if (limit.remaining !== undefined) used = Math.max(total - limit.remaining, limit.currentValue ?? -Infinity);
    else if (limit.currentValue !== undefined) used = limit.currentValue;
    if (used !== undefined) {
      const clamped = Math.min(total, Math.max(0, used));
      return { used: clamped, usedPercent: percent((clamped / total) * 100) };
    }
  }
  return { used: limit.currentValue ?? null, usedPercent: percent(limit.percentage) };
}

function windowLabel(limit: ZaiLimit): string | null {
  const word = UNIT_WORDS[limit.unit];
  if (!word || limit.number <= 0) return null;
  // The MCP bucket is reported as "1 minute" but is monthly.
  if (limit.type === "TIME_LIMIT" && limit.unit === 5 && limit.number === 1) return "Monthly";
  return `${limit.number} ${word}${limit.number === 1 ? "" : "s"} window`;
}

/** 13.6M, 40M, 688, 1.2K: the compact numbers of the detail line. */
export function compact(value: number): string {
  const units: [number, string][] = [
    [1e9, "B"],
    [1e6, "M"],
    [1e3, "K"],
  ];
  for (const [size, suffix] of units) {
    if (Math.abs(value) >= size) {
      const scaled = value / size;
      return `${Math.abs(scaled) < 10 ? scaled.toFixed(1).replace(/\.0$/, "") : Math.round(scaled)}${suffix}`;
    }
  }
  return String(value);
}
