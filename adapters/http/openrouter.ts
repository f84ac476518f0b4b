import { z } from "zod";
import { openRouterSnapshot, type OpenRouterKeyInfo, type OpenRouterReading } from "../../domain/providers/openrouter.js";
import type { FetchContext } from "../../ports/fetch-context.js";
import type { FetchStrategy } from "../../ports/fetch-strategy.js";
import type { HttpClient } from "../../ports/http-client.js";
import { apiKeyCredential, cleanSecret, missingApiKey } from "./api-key-credential.js";
import { overrideUrl } from "./base-url.js";
import { decodeJson, looseNumber } from "./decode.js";

const DEFAULT_BASE = "https://openrouter.ai/api/v1";
const KEY_BUDGET_MS = 2_000;
const SERVICE = "OpenRouter";

const CreditsResponse = z.object({
  data: z.object({ total_credits: looseNumber, total_usage: looseNumber }),
});

const KeyResponse = z.object({
  data: z.object({
    limit: looseNumber.nullish(),
    usage: looseNumber.nullish(),
    limit_remaining: looseNumber.nullish(),
    rate_limit: z.object({ requests: looseNumber, interval: z.string() }).nullish(),
  }),
});

function baseUrl(context: FetchContext): string {
  const override = cleanSecret(context.env.OPENROUTER_API_URL);
  return (override ? overrideUrl(override, "OPENROUTER_API_URL").toString() : DEFAULT_BASE).replace(/\/+$/, "");
}

/** `/credits`, then `/key` on a small budget: a slow or failing `/key` only loses the key details. */
export function openRouterStrategy(http: HttpClient): FetchStrategy<string, OpenRouterReading> {
  return {
    source: "api",
    credentials: apiKeyCredential(["OPENROUTER_API_KEY"]),
    missingCredential: (context) =>
      missingApiKey(SERVICE, "openrouter", "OPENROUTER_API_KEY", context, "OpenRouter API key not configured"),
    toSnapshot: openRouterSnapshot,
    usage: {
      async fetch(key, context) {
        const base = baseUrl(context);
        const headers: Record<string, string> = {
          Authorization: `Bearer ${key}`,
          Accept: "application/json",
          "X-Title": cleanSecret(context.env.OPENROUTER_X_TITLE) ?? "quotabar",
        };
        const referer = cleanSecret(context.env.OPENROUTER_HTTP_REFERER);
        if (referer) headers["HTTP-Referer"] = referer;
        const credits = await http
          .request({
            url: `${base}/credits`,
            headers,
            service: SERVICE,
            secrets: [key],
            signal: context.signal,
            timeoutMs: context.timeoutMs,
          })
          .catch((error) => {
            if (error?.code === "unauthorized" || error?.code === "forbidden") {
              error.withHint("Check OPENROUTER_API_KEY (or providers[openrouter].apiKey); keys look like sk-or-v1-...");
            }
            throw error;
          });
        const { data } = decodeJson(credits.body, CreditsResponse, SERVICE);
        return { totalCredits: data.total_credits, totalUsage: data.total_usage, key: await readKey(http, base, key, context) };
      },
    },
  };
}

async function readKey(http: HttpClient, base: string, key: string, context: FetchContext): Promise<OpenRouterKeyInfo | null> {
  try {
    const response = await http.request({
      url: `${base}/key`,
      headers: { Authorization: `Bearer ${key}`, Accept: "application/json" },
      service: SERVICE,
      secrets: [key],
      signal: context.signal,
      timeoutMs: Math.min(KEY_BUDGET_MS, context.timeoutMs),
    });
    const { data } = decodeJson(response.body, KeyResponse, SERVICE);
    return {
      limit: data.limit ?? null,
      usage: data.usage ?? null,
      limitRemaining: data.limit_remaining ?? null,
      rateLimit: data.rate_limit ? { requests: data.rate_limit.requests, interval: data.rate_limit.interval } : null,
    };
  } catch {
    return null;
  }
}
