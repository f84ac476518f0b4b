import { decodeValue, parseBoundedJson, toBool, toText, toTime, type ProviderHttp } from "../kit/index.js";
import { zCount } from "../kit/schema.js";
import * as z from "../../domain/zod.js";
import { KIMI_ORIGIN } from "./errors.js";
import type { KimiMembership } from "./policy.js";
import { SERVICE } from "./usage-body.js";
import { kimiHeaders } from "./web.js";

const STATS_URL = `${KIMI_ORIGIN}/apiv2/kimi.gateway.membership.v2.MembershipService/GetSubscriptionStats`;
/** The grace the extra call gets; the usage itself never waits longer than this for it. */
const MEMBERSHIP_TIMEOUT_MS = 2000;

const Stats = z.object({
  subscriptionBalance: z.nullish(
    z.object({
      feature: z.optional(z.unknown()),
      type: z.optional(z.unknown()),
      // a used ratio passes 1 over the quota, as used counts pass their limit; below zero it is refused
      amountUsedRatio: z.nullish(zCount),
      expireTime: z.optional(z.unknown()),
    }),
  ),
  ratelimitCode7d: z.nullish(z.object({ ratio: z.nullish(zCount), enabled: z.optional(z.unknown()), resetTime: z.optional(z.unknown()) })),
});

/**
 * GetSubscriptionStats: the subscription's total usage and the 7-day Kimi Code window. Best effort:
 * a short budget of its own, and any failure (status, body, time) means "no membership data".
 */
export async function readMembership(http: ProviderHttp, token: string): Promise<KimiMembership | null> {
  try {
    const response = await http.request({
      url: STATS_URL,
      method: "POST",
      headers: kimiHeaders(token),
      json: {},
      timeoutMs: MEMBERSHIP_TIMEOUT_MS,
    });
    const stats = decodeValue(parseBoundedJson(response.body, SERVICE), Stats, SERVICE);
    const balance = stats.subscriptionBalance;
    const code = stats.ratelimitCode7d;
    return {
      balance: balance
        ? {
            feature: toText(balance.feature),
            type: toText(balance.type),
            usedRatio: balance.amountUsedRatio ?? null,
            endsAt: toTime(balance.expireTime),
          }
        : null,
      codeWeek: code ? { ratio: code.ratio ?? null, enabled: toBool(code.enabled), resetsAt: toTime(code.resetTime) } : null,
    };
  } catch {
    // the usage stands without it
    return null;
  }
}
