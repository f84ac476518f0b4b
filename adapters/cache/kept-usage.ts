import { ERROR_CODES, STATUS_INDICATORS } from "../../domain/usage-codes.js";
import type { ProviderUsage } from "../../domain/usage-document.js";

/**
 * A kept snapshot checked field by field without zod (a status bar polls every few seconds, and
 * building the document's schema would be most of its run): the same rules as ProviderUsageSchema,
 * which wrote it, so a damaged or hand-edited file reads as no snapshot rather than as wrong numbers.
 * test/core/kept-usage.test.ts holds the two to the same answers.
 */
export function keptUsage(value: unknown): ProviderUsage | null {
  if (!isObject(value)) return null;
  const ok =
    isString(value.id) &&
    isString(value.name) &&
    typeof value.ok === "boolean" &&
    nullOr(value.source, isString) &&
    nullOr(value.plan, isString) &&
    nullOr(value.primary, isMeter) &&
    nullOr(value.secondary, isMeter) &&
    nullOr(value.tertiary, isMeter) &&
    Array.isArray(value.details) &&
    value.details.every((d) => isObject(d) && isString(d.label) && isString(d.value)) &&
    nullOr(value.status, isStatus) &&
    nullOr(value.fetchedAt, isIsoTime) &&
    typeof value.stale === "boolean" &&
    nullOr(value.error, isError);
  return ok ? (value as unknown as ProviderUsage) : null;
}

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === "object" && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === "string";
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isPercent = (value: unknown) => isNumber(value) && value >= 0 && value <= 100;
const nullOr = (value: unknown, check: (v: unknown) => boolean) => value === null || check(value);

// what zod's z.iso.datetime({ offset: true }) accepts: a date, a time to the second or finer, Z or a ±hh:mm offset
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/;
const isIsoTime = (value: unknown) => isString(value) && ISO_TIME.test(value) && !Number.isNaN(Date.parse(value));

function isMeter(value: unknown): boolean {
  return (
    isObject(value) &&
    isString(value.label) &&
    nullOr(value.usedPercent, isPercent) &&
    nullOr(value.used, isNumber) &&
    nullOr(value.limit, isNumber) &&
    nullOr(value.unit, isString) &&
    typeof value.unlimited === "boolean" &&
    nullOr(value.resetsAt, isIsoTime) &&
    nullOr(value.windowMinutes, Number.isInteger) &&
    nullOr(value.note, isString) &&
    (value.pace === undefined || nullOr(value.pace, isPace))
  );
}

function isPace(value: unknown): boolean {
  return (
    isObject(value) &&
    isPercent(value.expectedPercent) &&
    isNumber(value.deltaPercent) &&
    nullOr(value.runsOutAt, isIsoTime) &&
    typeof value.lastsToReset === "boolean" &&
    (value.basis === "window" || value.basis === "history")
  );
}

function isStatus(value: unknown): boolean {
  return (
    isObject(value) &&
    (STATUS_INDICATORS as readonly unknown[]).includes(value.indicator) &&
    isString(value.description) &&
    nullOr(value.url, isString) &&
    Array.isArray(value.incidents) &&
    value.incidents.every(
      (i) => isObject(i) && isString(i.name) && isString(i.impact) && nullOr(i.url, isString) && nullOr(i.updatedAt, isIsoTime),
    )
  );
}

function isError(value: unknown): boolean {
  return (
    isObject(value) && (ERROR_CODES as readonly unknown[]).includes(value.code) && isString(value.message) && nullOr(value.hint, isString)
  );
}
