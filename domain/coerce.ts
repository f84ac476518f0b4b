/**
 * Upstream numbers and times in every shape we meet (numbers or numeric strings; epoch seconds or
 * milliseconds; ISO-8601; durations), turned into plain numbers and absolute ISO-8601 UTC times.
 * The one coercion module: policies and wires both use it.
 */

const NUMERIC = /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/;
const MS_THRESHOLD = 1e11; // epoch seconds stay below this until the year 5138

/** A finite JSON number, or a string holding one ("2048", " 12.5 "); anything else is null. */
export function toNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && NUMERIC.test(value)) return Number(value);
  return null;
}

/**
 * Why an upstream count cannot be what it says (used, a limit, what is left, credits, a balance that
 * cannot go below zero): a negative one; null when it can. Wires check every count with it (kit
 * `zCount`, `checkedCount`) before a policy does any arithmetic, so no clamp hides a wrong number.
 */
export function countProblem(value: number): string | null {
  return value < 0 ? `must not be negative (got ${value})` : null;
}

/** Why an upstream percent cannot be: below 0 or above 100 (an over-quota figure is a count, not a percent field). */
export function percentProblem(value: number): string | null {
  if (value < 0) return `must not be negative (got ${value})`;
  return value > 100 ? `must not be above 100 (got ${value})` : null;
}

/** Why an upstream ratio (a fraction of the quota, 0..1) cannot be: below 0 or above 1. */
export function ratioProblem(value: number): string | null {
  if (value < 0) return `must not be negative (got ${value})`;
  return value > 1 ? `must not be above 1 (got ${value})` : null;
}

/** A boolean from true/false, 1/0, "true"/"yes"/"1"; anything else is null. */
export function toBool(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") {
    const text = value.trim().toLowerCase();
    if (["true", "1", "yes"].includes(text)) return true;
    if (["false", "0", "no"].includes(text)) return false;
  }
  return null;
}

/** A trimmed non-empty string, else null. */
export function toText(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** Epoch seconds or epoch milliseconds (told apart by magnitude). */
export function fromEpoch(value: number | null | undefined): string | null {
  if (value === null || value === undefined || !Number.isFinite(value) || value <= 0) return null;
  return toIso(new Date(value >= MS_THRESHOLD ? value : value * 1000));
}

export const fromEpochSeconds = (value: number | null | undefined): string | null =>
  value === null || value === undefined || !Number.isFinite(value) || value <= 0 ? null : toIso(new Date(value * 1000));

export const fromEpochMillis = (value: number | null | undefined): string | null =>
  value === null || value === undefined || !Number.isFinite(value) || value <= 0 ? null : toIso(new Date(value));

/** ISO-8601 / RFC 3339 text, with or without fractional seconds; null when unparseable. */
export function fromIso(value: string | null | undefined): string | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  return toIso(new Date(value.trim()));
}

/** A duration from now in seconds as an absolute time. */
export function afterSeconds(now: Date, seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return null;
  return toIso(new Date(now.getTime() + seconds * 1000));
}

/** A duration from now in milliseconds as an absolute time. */
export function afterMillis(now: Date, ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return null;
  return toIso(new Date(now.getTime() + ms));
}

/** Any time: numbers by magnitude, numeric text likewise, other text as ISO. */
export function toTime(value: unknown): string | null {
  if (typeof value === "number") return fromEpoch(value);
  if (typeof value === "string") {
    const trimmed = value.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed)) return fromEpoch(Number(trimmed));
    return fromIso(trimmed);
  }
  return null;
}

function toIso(date: Date): string | null {
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
