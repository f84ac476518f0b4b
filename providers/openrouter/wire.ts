import {
  advice,
  apiKey,
  decodeJson,
  fromEnv,
  missingKey,
  overrideUrl,
  zNumber,
  type FetchContext,
  type FetchStrategy,
  type ProviderHttp,
  type QuotabarError,
  type Remedy,
} from "../kit/index.js";
import { z } from "zod";
import { openrouterSnapshot, type OpenrouterKeyInfo, type OpenrouterReading } from "./policy.js";

const DEFAULT_API = "https://openrouter.ai/api/v1";
/** `/key` only adds details: it gets at most this long (and never more than the provider has left). */
const KEY_BUDGET_MS = 2_000;
const SERVICE = "OpenRouter";
const ENV = ["OPENROUTER_API_KEY"];
// "sk-or-v1-" followed by anything would be masked as a token in the hint, hence the wording
const CHECK_KEY: Remedy[] = [
  advice("The key was rejected; OpenRouter keys start with sk-or-v1 and are made at openrouter.ai/settings/keys."),
  { kind: "set-key", provider: "openrouter", env: ENV },
];

const CreditsResponse = z.object({
  data: z.object({ total_credits: zNumber, total_usage: zNumber }),
});

const KeyResponse = z.object({
  data: z.object({
    limit: zNumber.nullish(),
    usage: zNumber.nullish(),
    limit_remaining: zNumber.nullish(),
    rate_limit: z.object({ requests: zNumber, interval: z.string() }).nullish(),
  }),
});

/** The API base: OPENROUTER_API_URL (https, or http on loopback) when set, without trailing slashes. */
function apiBase(context: FetchContext): string {
  const override = fromEnv(context, ["OPENROUTER_API_URL"]);
  return (override ? overrideUrl(override, "OPENROUTER_API_URL").toString() : DEFAULT_API).replace(/\/+$/, "");
}

/** `/credits`, then `/key` on a small budget: a slow or failing `/key` only loses the key details. */
export const openrouterApi: FetchStrategy<string, OpenrouterReading> = {
  source: "api",
  credentials: apiKey(ENV),
  missingCredential: () => missingKey("openrouter", ENV, "OpenRouter API key not configured"),
  toSnapshot: openrouterSnapshot,
  async fetch(key, context) {
    const api = apiBase(context);
    const headers: Record<string, string> = {
      Authorization: `Bearer ${key}`,
      Accept: "application/json",
      "X-Title": fromEnv(context, ["OPENROUTER_X_TITLE"]) ?? "quotabar",
    };
    const referer = fromEnv(context, ["OPENROUTER_HTTP_REFERER"]);
    if (referer) headers["HTTP-Referer"] = referer;
    const credits = await context.http.request({ url: `${api}/credits`, headers }).catch((error: QuotabarError) => {
      throw error.code === "unauthorized" || error.code === "forbidden" ? error.withRemedies(...CHECK_KEY) : error;
    });
    const { data } = decodeJson(credits.body, CreditsResponse, SERVICE);
    return { totalCredits: data.total_credits, totalUsage: data.total_usage, key: await readKey(context.http, api, key) };
  },
};

async function readKey(http: ProviderHttp, api: string, key: string): Promise<OpenrouterKeyInfo | null> {
  try {
    const response = await http.request({
      url: `${api}/key`,
      headers: { Authorization: `Bearer ${key}`, Accept: "application/json" },
      timeoutMs: KEY_BUDGET_MS,
    });
    const { data } = decodeJson(response.body, KeyResponse, SERVICE);
    return {
      limit: data.limit ?? null,
      usage: data.usage ?? null,
      limitRemaining: data.limit_remaining ?? null,
      rateLimit: data.rate_limit ? { requests: data.rate_limit.requests, interval: data.rate_limit.interval } : null,
    };
  } catch {
    return null; // any failure of /key only loses the key details
  }
}
