import * as z from "../../domain/zod.js";
import { decodeJson, type ProviderHttp } from "../kit/index.js";
import { zCount, zNumber } from "../kit/schema.js";
import type { LimitReset, OpenrouterKeyInfo } from "./policy.js";

/** `/key` only adds details: it gets at most this long (and never more than the provider has left). */
const KEY_BUDGET_MS = 2_000;
const WINDOWS: readonly string[] = ["daily", "weekly", "monthly"] satisfies LimitReset[];

// A limit or a spend below zero is impossible: such a body is not read at all, never read as "no limit".
const money = z.nullish(zCount);

const KeyResponse = z.object({
  data: z.object({
    limit: money,
    usage: money,
    // may dip below zero when in-flight requests overshoot the limit; the policy clamps it
    limit_remaining: z.nullish(zNumber),
    limit_reset: z.catch(z.nullish(z.string()), null),
    usage_daily: money,
    usage_weekly: money,
    usage_monthly: money,
    // deprecated upstream: a shape of its own never costs the rest of the key
    rate_limit: z.catch(z.nullish(z.object({ requests: zNumber, interval: z.string().check(z.maxLength(40)) })), null),
  }),
});

const windowOf = (value: string | null | undefined): LimitReset | null => {
  const text = value?.trim().toLowerCase() ?? "";
  return WINDOWS.includes(text) ? (text as LimitReset) : null;
};

/** `GET /key`: the key's limit, spend and reset window; null on any failure (only the key details are lost). */
export async function readKey(http: ProviderHttp, api: string, key: string): Promise<OpenrouterKeyInfo | null> {
  try {
    const response = await http.request({
      url: `${api}/key`,
      headers: { Authorization: `Bearer ${key}`, Accept: "application/json" },
      timeoutMs: KEY_BUDGET_MS,
    });
    const { data } = decodeJson(response.body, KeyResponse, "OpenRouter");
    const rate = data.rate_limit;
    return {
      limit: data.limit ?? null,
      usage: data.usage ?? null,
      limitRemaining: data.limit_remaining ?? null,
      limitReset: windowOf(data.limit_reset),
      usageDaily: data.usage_daily ?? null,
      usageWeekly: data.usage_weekly ?? null,
      usageMonthly: data.usage_monthly ?? null,
      // a non-positive request count is a placeholder, not a rate
      rateLimit: rate && rate.requests > 0 ? { requests: rate.requests, interval: rate.interval } : null,
    };
  } catch {
    return null;
  }
}
