import { advice, checkedCount, isObject, parseError, toBool, toNumber, toText, toTime, type JsonObject } from "../kit/index.js";
import type { KiroLimits, KiroOverage } from "./policy-log.js";
import { titleCase } from "./usage-text.js";

const MAX_PLAN_CHARS = 60;
const CURRENCY = /^[A-Z]{3}$/;

export const logParseError = (detail: string) =>
  parseError(`Failed to parse Kiro usage: ${detail}`, advice("Kiro may have changed what it logs; please report it."));

const SERVICE = "Kiro";

/** A count with its precise spelling first (`currentUsageWithPrecision`), then the whole one; a negative one is a parse error naming it. */
function count(o: JsonObject, name: string, where: string): number | null {
  for (const key of [`${name}WithPrecision`, name]) {
    const value = toNumber(o[key]);
    if (value !== null) return checkedCount(value, `${where}.${key}`, SERVICE);
  }
  return null;
}

/** A count that must be there; otherwise the error names it. */
function required(o: JsonObject, name: string, where: string): number {
  const value = count(o, name, where);
  if (value === null) throw logParseError(`${where}.${name}WithPrecision is missing.`);
  return value;
}

/**
 * The `output` of a logged `GetUsageLimitsCommand`: the CREDIT entry of `usageBreakdownList`
 * (required, with its usage and limit), `nextDateReset` as ISO text or epoch seconds,
 * `freeTrialInfo`, `subscriptionInfo`, and the overage fields.
 */
export function usageLimitsOf(output: JsonObject): KiroLimits {
  const list = output.usageBreakdownList;
  if (!Array.isArray(list)) throw logParseError("usageBreakdownList is missing.");
  const index = list.findIndex((entry) => isObject(entry) && toText(entry.resourceType)?.toUpperCase() === "CREDIT");
  if (index < 0) throw logParseError("usageBreakdownList has no CREDIT entry.");
  const credit = list[index] as JsonObject;
  const where = `usageBreakdownList[${index}]`;
  const title = toText(valueOf(output.subscriptionInfo, "subscriptionTitle"));
  return {
    plan: title === null ? null : titleCase(title.slice(0, MAX_PLAN_CHARS)),
    credits: { used: required(credit, "currentUsage", where), limit: required(credit, "usageLimit", where) },
    resetsAt: toTime(credit.nextDateReset) ?? toTime(output.nextDateReset),
    trial: trialOf(credit.freeTrialInfo, `${where}.freeTrialInfo`),
    overage: overageOf(credit, output.overageConfiguration, where),
  };
}

const valueOf = (o: unknown, key: string): unknown => (isObject(o) ? o[key] : undefined);

function trialOf(info: unknown, where: string): KiroLimits["trial"] {
  if (!isObject(info) || toText(info.freeTrialStatus)?.toUpperCase() !== "ACTIVE") return null;
  const used = count(info, "currentUsage", where);
  const limit = count(info, "usageLimit", where);
  return used === null || limit === null ? null : { used, limit, expiresAt: toTime(info.freeTrialExpiry) };
}

function overageOf(credit: JsonObject, configuration: unknown, where: string): KiroOverage {
  const status = toText(valueOf(configuration, "overageStatus"))?.toUpperCase();
  const enabled = status === "ENABLED" ? true : status === "DISABLED" ? false : toBool(valueOf(configuration, "overageEnabled"));
  const currency = toText(credit.currency);
  return {
    enabled,
    used: count(credit, "currentOverages", where),
    cap: count(credit, "overageCap", where),
    charges: checkedCount(toNumber(credit.overageCharges), `${where}.overageCharges`, SERVICE),
    currency: currency !== null && CURRENCY.test(currency) ? currency : null,
  };
}
