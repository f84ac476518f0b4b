import { advice, decodeValue, isObject, parseBoundedJson, QuotabarError, toNumber, toText, toTime } from "../kit/index.js";
import { zCount } from "../kit/schema.js";
import * as z from "../../domain/zod.js";
import type { KimiQuota, KimiRateLimit } from "./policy.js";
import { hasCounters } from "./policy-quota.js";

export const SERVICE = "Kimi";
export const CODING_SCOPE = "FEATURE_CODING";

/** A counter block: numbers or numeric strings (a negative one is a parse error naming it), the reset under any of its four names. */
const Detail = z.object({
  limit: z.nullish(zCount),
  used: z.nullish(zCount),
  remaining: z.nullish(zCount),
  resetTime: z.optional(z.unknown()),
  resetAt: z.optional(z.unknown()),
  reset_time: z.optional(z.unknown()),
  reset_at: z.optional(z.unknown()),
});
/** A limit item: its counters under `detail`, or on the item itself (some answers). */
const Limit = z.extend(Detail, { window: z.optional(z.unknown()), detail: z.nullish(Detail) });
/** Only the first limit is read, so a long or odd list costs nothing. */
const Limits = z.nullish(
  z.pipe(
    z.pipe(
      z.array(z.unknown()),
      z.transform((items) => items.slice(0, 1)),
    ),
    z.array(Limit),
  ),
);

/** GetUsages (web): `{ usages: [{ scope, detail, limits }] }`. */
const UsagesResponse = z.object({ usages: z.array(z.object({ scope: z.string(), detail: Detail, limits: Limits })) });
/** The Kimi Code API: `{ usage, limits }`. */
const CodeApiResponse = z.object({ usage: z.nullish(Detail), limits: Limits });

export interface KimiUsage {
  weekly: KimiQuota;
  rateLimit: KimiRateLimit | null;
}

const usageError = (detail: string, hint: string) =>
  new QuotabarError("parse", `Failed to parse Kimi usage data: ${detail}`, { remedies: [advice(hint)] });

/** The `usages[FEATURE_CODING]` entry of a GetUsages body. */
export function webUsage(body: string): KimiUsage {
  const response = decodeValue(parseBoundedJson(body, SERVICE), UsagesResponse, SERVICE);
  const coding = response.usages.find((u) => u.scope === CODING_SCOPE);
  if (!coding) throw usageError(`${CODING_SCOPE} scope not found in response`, "The account may have no Kimi For Coding membership.");
  return usage(coding.detail, coding.limits, `usages[${response.usages.indexOf(coding)}].detail`);
}

/** A Kimi Code API body. */
export function codeApiUsage(body: string): KimiUsage {
  const response = decodeValue(parseBoundedJson(body, SERVICE), CodeApiResponse, SERVICE);
  if (!response.usage) throw usageError("no usage in response", "Kimi may have changed its Kimi Code API; please report it.");
  return usage(response.usage, response.limits, "usage");
}

function usage(detail: z.output<typeof Detail>, limits: z.output<typeof Limits>, field: string): KimiUsage {
  const weekly = quota(detail);
  if (!hasCounters(weekly)) throw usageError(`no usage counters in ${field}`, "Kimi may have changed its API; please report it.");
  const first = limits?.[0];
  return { weekly, rateLimit: first ? rateLimit(first) : null };
}

function rateLimit(limit: z.output<typeof Limit>): KimiRateLimit {
  const { window } = limit;
  return {
    ...quota(limit.detail ?? limit),
    window: isObject(window) ? { duration: toNumber(window.duration), unit: toText(window.timeUnit ?? window.time_unit) } : null,
  };
}

function quota(detail: z.output<typeof Detail>): KimiQuota {
  return {
    limit: detail.limit ?? null,
    used: detail.used ?? null,
    remaining: detail.remaining ?? null,
    resetsAt: toTime(detail.resetTime ?? detail.resetAt ?? detail.reset_time ?? detail.reset_at),
  };
}
