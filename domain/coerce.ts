/**
 * Upstream numbers and times in every shape we meet (numbers or numeric strings; epoch seconds or
 * milliseconds; ISO-8601; durations), turned into plain numbers and absolute ISO-8601 UTC times.
 * The one coercion module: policies and wires both use it.
 */

import { clamp } from "./meter.js";

const NUMERIC = /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/;
const MS_THRESHOLD = 1e11; // epoch seconds stay below this until the year 5138

/** A finite JSON number, or a string holding one ("2048", " 12.5 "); anything else (and "1e400") is null. */
export function toNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && NUMERIC.test(value)) {
    const number = Number(value);
    return Number.isFinite(number) ? number : null;
  }
  return null;
}

/*
 * The rule for readings out of range, one for every provider (README, Security). A reading whose
 * meaning is plain is shown as that meaning: more used than the whole is a full meter, 100 %, with
 * the overage in a note (`meterPercent`, `overQuotaNote`); more left than the whole is 0 % used and
 * less than nothing left a full meter (`meterPercentFromLeft`). A value with no meaning is a parse
 * error naming the field (the *Problem functions, through kit `zCount` / `zPercent` / `zLeft` or
 * `checked`): a negative total, limit or used figure, NaN or an infinity, a magnitude no quota has.
 */

/** The largest magnitude of any reading (tokens, credits, dollars, percent): past it a number means nothing (and from 10^21 prints as "1e+21"). */
export const MAX_READING = 1e15;

/** Why an upstream number is no reading at all: not finite, or larger than MAX_READING; null when it is one. */
function magnitudeProblem(value: number): string | null {
  if (!Number.isFinite(value)) return `is not a finite number (got ${value})`;
  return Math.abs(value) > MAX_READING ? `is larger than any quota (got ${value})` : null;
}

/**
 * Why an upstream count cannot be what it says (used, a limit, a total, credits, a balance that
 * cannot go below zero): a negative one, or no reading at all; null when it can. Wires check every
 * count with it (kit `zCount`, `checkedCount`) before a policy does any arithmetic.
 */
export function countProblem(value: number): string | null {
  return magnitudeProblem(value) ?? (value < 0 ? `must not be negative (got ${value})` : null);
}

/** Why an upstream percent *used* cannot be: as a count. Above 100 is a reading: a full meter (`meterPercent`). */
export const percentProblem = countProblem;

/** Why an upstream fraction *used* (0..1 of the quota) cannot be: as a count. Above 1 is a full meter. */
export const ratioProblem = countProblem;

/**
 * Why what is *left* (a percent, a fraction or a count of the quota) cannot be: no reading at all.
 * Below zero (past the quota) and above the whole are readings (`meterPercentFromLeft`).
 */
export const leftProblem = magnitudeProblem;

/** A used percent as the meter shows it: more used than the whole is a full meter, 100 %. */
export function meterPercent(usedPercent: number): number {
  return clamp(usedPercent);
}

/** What is left, as a percent of the whole (a fraction times 100), as the meter's used percent: more left than the whole is 0 %, less than nothing 100 %. */
export function meterPercentFromLeft(leftPercent: number): number {
  return meterPercent(100 - leftPercent);
}

/** The note of a meter past its whole ("Over quota: 150% used", then `detail`, e.g. " (1,500 of 1,000 requests)"); null within it. */
export function overQuotaNote(usedPercent: number, detail = ""): string | null {
  return usedPercent > 100 ? `Over quota: ${Math.round(usedPercent * 100) / 100}% used${detail}` : null;
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
