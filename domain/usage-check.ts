import { ERROR_CODES, STATUS_INDICATORS } from "./usage-codes.js";
import type { Detail, Incident, Meter, Pace, ProviderStatus, ProviderUsage, UsageError } from "./usage-document.js";

/**
 * A provider's usage checked field by field without zod: the same rules as ProviderUsageSchema,
 * and the same answer (the known fields only, as zod's parse strips the others), or null where the
 * schema would refuse it. Building the document's schema costs a one-provider refresh more than its
 * request, and a status bar reads kept snapshots every few seconds; the schema stays the reference
 * (and names the field when this refuses). test/core/usage-check.test.ts holds the two to the same answers.
 */
export function checkedUsage(value: unknown): ProviderUsage | null {
  if (!isObject(value)) return null;
  const ok =
    isString(value.id) &&
    (value.account === undefined || nullOr(value.account, isString)) &&
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
  if (!ok) return null;
  const usage = value as unknown as ProviderUsage;
  return {
    id: usage.id,
    ...(usage.account !== undefined ? { account: usage.account } : {}),
    name: usage.name,
    ok: usage.ok,
    source: usage.source,
    plan: usage.plan,
    primary: usage.primary && meterOf(usage.primary),
    secondary: usage.secondary && meterOf(usage.secondary),
    tertiary: usage.tertiary && meterOf(usage.tertiary),
    details: usage.details.map(({ label, value: text }): Detail => ({ label, value: text })),
    status: usage.status && statusOf(usage.status),
    fetchedAt: usage.fetchedAt,
    stale: usage.stale,
    error: usage.error && errorOf(usage.error),
  };
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
    nullOr(value.windowMinutes, Number.isSafeInteger) && // zod's int() is a safe integer
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

// the known fields of what the checks above accepted, in the schema's order
function meterOf(m: Meter): Meter {
  const { label, usedPercent, used, limit, unit, unlimited, resetsAt, windowMinutes, note, pace } = m;
  return {
    label,
    usedPercent,
    used,
    limit,
    unit,
    unlimited,
    resetsAt,
    windowMinutes,
    note,
    ...(pace === undefined ? {} : { pace: pace && paceOf(pace) }),
  };
}

function paceOf({ expectedPercent, deltaPercent, runsOutAt, lastsToReset, basis }: Pace): Pace {
  return { expectedPercent, deltaPercent, runsOutAt, lastsToReset, basis };
}

function statusOf({ indicator, description, url, incidents }: ProviderStatus): ProviderStatus {
  return {
    indicator,
    description,
    url,
    incidents: incidents.map(({ name, impact, url: link, updatedAt }): Incident => ({ name, impact, url: link, updatedAt })),
  };
}

function errorOf({ code, message, hint }: UsageError): UsageError {
  return { code, message, hint };
}
