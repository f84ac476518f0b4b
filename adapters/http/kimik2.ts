import { QuotabarError } from "../../domain/errors.js";
import { KIMI_K2_CREDITS_URL, kimiK2Snapshot, type KimiK2Reading } from "../../domain/providers/kimik2.js";
import { toResetsAt } from "../../domain/time.js";
import type { FetchContext } from "../../ports/fetch-context.js";
import type { FetchStrategy } from "../../ports/fetch-strategy.js";
import type { HttpClient, HttpResponse } from "../../ports/http-client.js";
import { apiKeyCredential } from "./api-key-credential.js";
import { isObject, numberOf, valueAt } from "./tolerant-json.js";

const SERVICE = "Kimi K2";
const ENV = ["KIMI_K2_API_KEY", "KIMI_API_KEY", "KIMI_KEY"] as const;
const KEY_HINT =
  "Set KIMI_K2_API_KEY (or KIMI_API_KEY / KIMI_KEY), or run `quotabar config set-key kimik2 --stdin` to store it as providers[kimik2].apiKey. Keys are at https://kimi-k2.ai/user-center/api-keys.";

// The body's real schema is unknown (reference section 4.3): search these objects for these keys.
const CONTEXTS = ["", "data", "data.usage", "data.credits", "result", "result.usage", "result.credits", "usage", "credits"];
const CONSUMED = [
  "total_credits_consumed",
  "totalCreditsConsumed",
  "total_credits_used",
  "totalCreditsUsed",
  "credits_consumed",
  "creditsConsumed",
  "consumedCredits",
  "usedCredits",
  "total", // a key named `total` is the consumed amount here, not a grand total
  "usage.total",
  "usage.consumed",
];
const REMAINING = [
  "credits_remaining",
  "creditsRemaining",
  "remaining_credits",
  "remainingCredits",
  "available_credits",
  "availableCredits",
  "credits_left",
  "creditsLeft",
  "usage.credits_remaining",
  "usage.remaining",
];
const AVERAGE_TOKENS = [
  "average_tokens_per_request",
  "averageTokensPerRequest",
  "average_tokens",
  "averageTokens",
  "avg_tokens",
  "avgTokens",
];
const UPDATED_AT = ["updated_at", "updatedAt", "timestamp", "time", "last_update", "lastUpdated"];

export function kimiK2Strategy(http: HttpClient): FetchStrategy<string, KimiK2Reading> {
  return {
    source: "api",
    credentials: apiKeyCredential(ENV),
    missingCredential: () => new QuotabarError("not_configured", "Kimi K2 API key not found", { hint: KEY_HINT }),
    toSnapshot: kimiK2Snapshot,
    usage: {
      async fetch(key, context) {
        const response = await request(http, key, context);
        return kimiK2Reading(response);
      },
    },
  };
}

async function request(http: HttpClient, key: string, context: FetchContext): Promise<HttpResponse> {
  try {
    return await http.request({
      url: KIMI_K2_CREDITS_URL,
      headers: { Authorization: `Bearer ${key}`, Accept: "application/json" },
      service: SERVICE,
      secrets: [key],
      signal: context.signal,
      timeoutMs: context.timeoutMs,
    });
  } catch (thrown) {
    const error = thrown as QuotabarError;
    if (error.code === "unauthorized" || error.code === "forbidden") error.withHint(`The key was rejected. ${KEY_HINT}`);
    throw error;
  }
}

/** The tolerant search of reference section 4.3: body first, then the X-Credits-Remaining header. */
export function kimiK2Reading(response: Pick<HttpResponse, "body" | "headers">): KimiK2Reading {
  let root: unknown;
  try {
    root = JSON.parse(response.body);
  } catch {
    root = undefined;
  }
  if (!isObject(root)) throw new QuotabarError("parse", "Failed to parse Kimi K2 response: Root JSON is not an object.");
  const contexts = CONTEXTS.map((path) => (path === "" ? root : valueAt(root, path))).filter(isObject);
  const remaining = firstNumber(contexts, REMAINING) ?? numberOf(header(response.headers, "x-credits-remaining"));
  return {
    consumed: firstNumber(contexts, CONSUMED) ?? 0,
    remaining: Math.max(0, remaining ?? 0),
    averageTokensPerRequest: firstNumber(contexts, AVERAGE_TOKENS),
    updatedAt: firstTime(contexts, UPDATED_AT),
  };
}

/**
 * For each path in order, the first context that has it decides; a non-numeric value there (even
 * null) moves on to the next path rather than to the next context.
 */
function firstNumber(contexts: readonly object[], paths: readonly string[]): number | null {
  for (const path of paths) {
    const value = firstPresent(contexts, path);
    const number = numberOf(value);
    if (number !== null) return number;
  }
  return null;
}

function firstTime(contexts: readonly object[], paths: readonly string[]): string | null {
  for (const path of paths) {
    const value = firstPresent(contexts, path);
    const number = numberOf(value);
    if (number !== null && number <= 0) continue;
    const time = toResetsAt(number ?? value);
    if (time) return time;
  }
  return null;
}

function firstPresent(contexts: readonly object[], path: string): unknown {
  for (const context of contexts) {
    const value = valueAt(context, path);
    if (value !== undefined) return value;
  }
  return undefined;
}

function header(headers: HttpResponse["headers"], name: string): string | undefined {
  const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}
