import { advice, decodeJson, fromEnv, overrideUrl, type FetchContext, type QuotabarError, type Remedy } from "../kit/index.js";
import { zCount } from "../kit/schema.js";
import * as z from "../../domain/zod.js";
import { ENV, type OpenrouterCredential } from "./credentials.js";
import type { OpenrouterReading } from "./policy.js";
import { readActivity } from "./wire-activity.js";
import { readKey } from "./wire-key.js";

const DEFAULT_API = "https://openrouter.ai/api/v1";
const SERVICE = "OpenRouter";
// "sk-or-v1-" followed by anything would be masked as a token in the hint, hence the wording
const CHECK_KEY: Remedy[] = [
  advice("The key was rejected; OpenRouter keys start with sk-or-v1 and are made at openrouter.ai/settings/keys."),
  { kind: "set-key", provider: "openrouter", env: ENV },
];

// Credits and usage are never negative: such a body is a parse error naming the field.
const CreditsResponse = z.object({
  data: z.object({ total_credits: zCount, total_usage: zCount }),
});

/** The API base: OPENROUTER_API_URL (https, or http on loopback) when set, without trailing slashes. */
function apiBase(context: FetchContext): string {
  const override = fromEnv(context, ["OPENROUTER_API_URL"]);
  let base = override ? overrideUrl(override, "OPENROUTER_API_URL").toString() : DEFAULT_API;
  while (base.endsWith("/")) base = base.slice(0, -1);
  return base;
}

async function readCredits(context: FetchContext, api: string, key: string) {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${key}`,
    Accept: "application/json",
    "X-Title": fromEnv(context, ["OPENROUTER_X_TITLE"]) ?? "quotabar",
  };
  const referer = fromEnv(context, ["OPENROUTER_HTTP_REFERER"]);
  if (referer) headers["HTTP-Referer"] = referer;
  const response = await context.http.request({ url: `${api}/credits`, headers }).catch((error: QuotabarError) => {
    throw error.code === "unauthorized" || error.code === "forbidden" ? error.withRemedies(...CHECK_KEY) : error;
  });
  const { data } = decodeJson(response.body, CreditsResponse, SERVICE);
  return { totalCredits: data.total_credits, totalUsage: data.total_usage };
}

/**
 * `/credits`, `/key` and (with a management key) `/activity` at once. The last two are best effort
 * on short budgets and never reject; a failed `/credits` fails the fetch without waiting for them.
 */
export async function readOpenrouter(
  { apiKey: key, managementKey }: OpenrouterCredential,
  context: FetchContext,
): Promise<OpenrouterReading> {
  const api = apiBase(context);
  const keyInfo = readKey(context.http, api, key);
  const activity = managementKey ? readActivity(context.http, managementKey) : Promise.resolve(null);
  const credits = await readCredits(context, api, key);
  return { ...credits, key: await keyInfo, activity: await activity };
}
