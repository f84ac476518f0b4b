import {
  advice,
  checkedCount,
  firstAt,
  header,
  isObject,
  parseError,
  QuotabarError,
  toNumber,
  toText,
  toTime,
  tryJson,
  valueAt,
  type FetchContext,
  type HttpResponse,
  type ProviderHttp,
} from "../kit/index.js";
import { excerptOutsideFetch } from "../../domain/redact.js";
import { SET_KEY } from "./credentials.js";
import type { Kimik2Reading } from "./policy.js";

const CREDITS_URL = "https://kimi-k2.ai/api/user/credits";
/** Messages name the relay without the "(unofficial)" of the provider's display name. */
const SERVICE = "Kimi K2";

// The body's real schema is unknown: search these objects for these keys.
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
const AUTH_WORDS = /api[\s_-]?key|unauthori[sz]ed|forbidden|token|credential|auth/i;

export async function readKimik2(key: string, { http }: FetchContext): Promise<Kimik2Reading> {
  const response = await http
    .request({ url: CREDITS_URL, service: SERVICE, headers: { Authorization: `Bearer ${key}`, Accept: "application/json" } })
    .catch((error: QuotabarError) => {
      const rejected = error.code === "unauthorized" || error.code === "forbidden";
      throw rejected ? error.withRemedies(advice("The key was rejected."), ...SET_KEY) : error;
    });
  return kimik2Reading(response, http.excerpt);
}

/**
 * The tolerant search: the body first, then the X-Credits-Remaining header. For each key in order,
 * the first object that has it decides; a non-numeric value there (even null) moves on to the next key.
 * An `error` field is the service refusing, even with HTTP 200; no credit field at all is no answer.
 */
export function kimik2Reading(
  response: Pick<HttpResponse, "body" | "headers">,
  excerpt: ProviderHttp["excerpt"] = excerptOutsideFetch,
): Kimik2Reading {
  const root = tryJson(response.body);
  if (!isObject(root)) throw parseError(`Failed to parse ${SERVICE} response: Root JSON is not an object.`);
  const refusal = errorText(root.error, excerpt);
  if (refusal !== null) throw refused(refusal);
  const contexts = CONTEXTS.map((path) => (path === "" ? root : valueAt(root, path))).filter(isObject);
  const consumed = firstAt(contexts, CONSUMED, credits);
  const remaining =
    firstAt(contexts, REMAINING, credits) ?? credits(header(response.headers, "x-credits-remaining"), "X-Credits-Remaining");
  if (consumed === null && remaining === null) {
    throw parseError(
      `Failed to parse ${SERVICE} response: no credit field (consumed or remaining) in the body or the X-Credits-Remaining header.`,
      advice(`${SERVICE} may have changed its API, or a proxy answered instead.`),
    );
  }
  return {
    consumed: consumed ?? 0,
    remaining: remaining ?? 0,
    averageTokensPerRequest: firstAt(contexts, AVERAGE_TOKENS, credits),
    updatedAt: firstAt(contexts, UPDATED_AT, stampedTime),
  };
}

/** A credit figure: a number or numeric text (else null, and the search moves on); a negative one is a parse error naming it. */
const credits = (value: unknown, field: string): number | null => checkedCount(toNumber(value), field, SERVICE);

/** The text of an `error` field (a string, or an object's `message` / `msg` / `code`), redacted then cut; null when there is none. */
function errorText(value: unknown, excerpt: ProviderHttp["excerpt"]): string | null {
  const text = isObject(value)
    ? (toText(value.message) ?? toText(value.msg) ?? toText(value.code) ?? "an error without a message")
    : toText(value);
  return text === null ? null : excerpt(text);
}

/** A refusal inside a 200: about the key it is unauthorized (with the key remedies), otherwise an upstream error. */
function refused(text: string): QuotabarError {
  const message = `${SERVICE} API error: ${text}`;
  if (AUTH_WORDS.test(text)) return new QuotabarError("unauthorized", message, { remedies: [advice("The key was rejected."), ...SET_KEY] });
  return new QuotabarError("upstream", message, { remedies: [{ kind: "retry" }] });
}

/** A time in any shape; an epoch of zero or less means the service gave none. */
function stampedTime(value: unknown): string | null {
  const number = toNumber(value);
  if (number !== null && number <= 0) return null;
  return toTime(number ?? value);
}
