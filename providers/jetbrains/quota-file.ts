import { advice, countProblem, fromIso, isObject, QuotabarError, toNumber, toText, tryJson, type JsonObject } from "../kit/index.js";
import { findElements, parseXml } from "../kit/xml.js";
import type { JetBrainsReading } from "./policy.js";

/**
 * `AIAssistantQuotaManager2.xml`: a component whose `option` elements carry JSON in their `value`
 * attribute, XML-escaped (`&quot;`, `&#10;`). Numbers in that JSON arrive as strings or numbers.
 */

const COMPONENT = "AIAssistantQuotaManager2";

/** The reading of one IDE's quota file; a file that cannot be read says what is wrong and where. */
export function quotaReading(text: string, ide: string): JetBrainsReading {
  let roots;
  try {
    roots = parseXml(text);
  } catch (error) {
    throw cannotParse(ide, `Invalid XML: ${(error as Error).message}`);
  }
  const component = findElements(roots, (e) => e.name === "component" && e.attributes.name === COMPONENT)[0];
  const option = (name: string) => component?.children.find((e) => e.name === "option" && e.attributes.name === name)?.attributes.value;

  const quotaText = option("quotaInfo");
  if (quotaText === undefined || quotaText.trim() === "") {
    throw new QuotabarError("parse", "No quota information found in the JetBrains AI configuration.", { remedies: [rewrite(ide)] });
  }
  const quota = jsonObject(quotaText);
  if (quota === null) throw cannotParse(ide, "Invalid JSON format in quotaInfo");
  const limit = quantity(quota, "maximum", ide);
  if (limit === null) throw cannotParse(ide, "quotaInfo has no maximum");
  const used = quantity(quota, "current", ide) ?? 0;

  const warnings: string[] = [];
  const refillText = option("nextRefill");
  // the meter stands without a refill date, so an unreadable one is a warning, not a failure
  const refillJson = refillText?.trim() ?? "";
  const refill: JsonObject | null = refillJson === "" || refillJson === "null" ? {} : jsonObject(refillJson);
  if (refill === null) warnings.push("The refill date could not be read: nextRefill is not valid JSON.");
  const tariff = isObject(refill?.tariff) ? refill.tariff : {};
  const duration = toText(refill?.duration) ?? toText(tariff.duration);
  const left = leftOf(quota, ide);
  return {
    ide,
    plan: toText(quota.type),
    used: credits(used),
    limit: credits(limit),
    left: credits(left.total ?? Math.max(0, limit - used)),
    topUpLeft: left.topUp === null ? null : credits(left.topUp),
    // without a known next refill the quota's own end stands in
    refillAt:
      (typeof refill?.next === "string" ? fromIso(refill.next) : null) ?? (typeof quota.until === "string" ? fromIso(quota.until) : null),
    refillAmount: credits(
      refill === null ? null : (quantity(refill, "amount", ide, "nextRefill") ?? quantity(tariff, "amount", ide, "nextRefill.tariff")),
    ),
    refillMinutes: duration === null ? null : minutesOf(duration),
    warnings,
  };
}

/** The file counts in 1/100,000 of a credit (a `current` of 1981684.92 is 19.82 credits). */
const UNITS_PER_CREDIT = 100_000;

function credits(units: number): number;
function credits(units: number | null): number | null;
function credits(units: number | null): number | null {
  return units === null ? null : units / UNITS_PER_CREDIT;
}

/** `tariffQuota.available` plus `topUpQuota.available` (bought credits), in file units; null totals when the file has neither. */
function leftOf(quota: JsonObject, ide: string): { total: number | null; topUp: number | null } {
  const tariff = isObject(quota.tariffQuota) ? quantity(quota.tariffQuota, "available", ide, "quotaInfo.tariffQuota") : null;
  const topUp = isObject(quota.topUpQuota) ? quantity(quota.topUpQuota, "available", ide, "quotaInfo.topUpQuota") : null;
  return { total: tariff === null && topUp === null ? null : (tariff ?? 0) + (topUp ?? 0), topUp };
}

function jsonObject(text: string): JsonObject | null {
  const value = tryJson(text);
  return isObject(value) ? value : null;
}

/** An amount of credits: a number or numeric text; absent is null, anything else (a negative amount too) an error that names it. */
function quantity(object: JsonObject, field: string, ide: string, where = "quotaInfo"): number | null {
  const value = object[field];
  if (value === undefined || value === null) return null;
  const amount = toNumber(value);
  if (amount === null) throw cannotParse(ide, `${where}.${field} is not a number: ${JSON.stringify(value).slice(0, 40)}`);
  const problem = countProblem(amount);
  if (problem !== null) throw cannotParse(ide, `${where}.${field} ${problem}`);
  return amount;
}

/** An ISO-8601 duration (`PT720H`, `P30D`) in whole minutes; null for anything else (months have no fixed length). */
export function minutesOf(duration: string): number | null {
  const match = /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(
    duration,
  );
  if (!match) return null;
  const [weeks = 0, days = 0, hours = 0, minutes = 0, seconds = 0] = match.slice(1).map((part) => Number(part ?? 0));
  const total = Math.round(((weeks * 7 + days) * 24 + hours) * 60 + minutes + seconds / 60);
  return total > 0 && Number.isSafeInteger(total) ? total : null;
}

const rewrite = (ide: string) => advice(`Use AI Assistant once in ${ide} so it writes its quota file again.`);

export function cannotParse(ide: string, reason: string): QuotabarError {
  return new QuotabarError("parse", `Could not parse JetBrains AI quota: ${reason}`, {
    remedies: [rewrite(ide), advice("An IDE update may have changed the file's format.")],
  });
}
