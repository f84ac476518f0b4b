import { advice, decodeValue, isObject, parseBoundedJson, QuotabarError, toNumber, toText, toTime, valueAt } from "../kit/index.js";
import { zCount } from "../kit/schema.js";
import * as z from "../../domain/zod.js";
import type { KimiQuota, KimiRateLimit } from "./policy.js";
import { hasCounters, WEEK_MINUTES } from "./policy-quota.js";
import { windowMinutes } from "./policy-rate-limit.js";

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
/** The Kimi Code API: `{ user, usage, limits }`. */
const CodeApiResponse = z.object({ user: z.optional(z.unknown()), usage: z.nullish(Detail), limits: Limits });
/** Root-level limits when there is no `usage` (some accounts): each one read, up to a few. */
const RootLimits = z.nullish(
  z.pipe(
    z.pipe(
      z.array(z.unknown()),
      z.transform((items) => items.slice(0, MAX_ROOT_LIMITS)),
    ),
    z.array(Limit),
  ),
);
const MAX_ROOT_LIMITS = 4;

export interface KimiUsage {
  /** The weekly request quota; null for an answer whose only quotas are other windows. */
  weekly: KimiQuota | null;
  /** The first rate-limit window (the primary meter when there is no weekly quota). */
  rateLimit: KimiRateLimit | null;
  /** A second window beside it, read only from an answer without a weekly quota. */
  nextRateLimit?: KimiRateLimit | null;
  /** `user.membership.level` of the Code API (`LEVEL_INTERMEDIATE`), when it says one. */
  membershipLevel?: string | null;
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

/** A Kimi Code API body: `usage` and its first limit, else the root-level limits alone. */
export function codeApiUsage(body: string): KimiUsage {
  const root = parseBoundedJson(body, SERVICE);
  const response = decodeValue(root, CodeApiResponse, SERVICE);
  const membershipLevel = toText(valueAt(response.user, "membership.level"));
  if (response.usage) return { ...usage(response.usage, response.limits, "usage"), membershipLevel };
  const limits = (decodeValue(valueAt(root, "limits"), RootLimits, SERVICE) ?? []).map(rateLimit).filter(hasCounters);
  if (limits.length === 0) throw usageError("no usage in response", "Kimi may have changed its Kimi Code API; please report it.");
  return { ...fromRootLimits(limits), membershipLevel };
}

/**
 * An answer whose only quotas are root-level `limits[]`: a week-long window is the weekly quota (as
 * `usage` would be), the first other one its rate limit; without a week-long one, the first two
 * windows are the meters, in the order sent.
 */
function fromRootLimits(limits: KimiRateLimit[]): KimiUsage {
  const week = limits.findIndex((limit) => windowMinutes(limit.window) === WEEK_MINUTES);
  const others = limits.filter((_, index) => index !== week);
  if (week === -1) return { weekly: null, rateLimit: others[0] ?? null, nextRateLimit: others[1] ?? null };
  const { window: _window, ...weekly } = limits[week] as KimiRateLimit;
  return { weekly, rateLimit: others[0] ?? null };
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
