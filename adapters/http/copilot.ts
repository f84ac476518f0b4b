import { z } from "zod";
import { notConfigured, QuotabarError } from "../../domain/errors.js";
import { copilotSnapshot, type CopilotQuota, type CopilotReading } from "../../domain/providers/copilot.js";
import { redact } from "../../domain/redact.js";
import type { FetchContext } from "../../ports/fetch-context.js";
import type { FetchStrategy } from "../../ports/fetch-strategy.js";
import type { HttpClient, HttpResponse } from "../../ports/http-client.js";
import { cleanSecret } from "./api-key-credential.js";
import { decodeValue, looseNumber } from "./decode.js";

export const COPILOT_USAGE_URL = "https://api.github.com/copilot_internal/user";
const SERVICE = "GitHub Copilot";

/**
 * The editor identity GitHub expects on `copilot_internal` calls (spec 4.17 and 9). GitHub retires
 * old values now and then; each one can be overridden in the copilot config entry (same field name).
 */
export const COPILOT_HEADER_DEFAULTS = {
  editorVersion: "vscode/1.96.2",
  editorPluginVersion: "copilot-chat/0.26.7",
  /** Default: derived from editorPluginVersion (`copilot-chat/0.26.7` -> `GitHubCopilotChat/0.26.7`). */
  userAgent: "GitHubCopilotChat/0.26.7",
  apiVersion: "2025-04-01",
} as const;

export type CopilotHeaderValues = { -readonly [K in keyof typeof COPILOT_HEADER_DEFAULTS]: string };
const OVERRIDE_FIELDS = ["editorVersion", "editorPluginVersion", "userAgent", "apiVersion"] as const;

/** A token and where it came from, so a rejection can say which one to replace. */
export interface CopilotCredential {
  token: string;
  from: "config" | "env";
}

/** The header values to send: config overrides over the defaults, each checked so a typo fails clearly. */
export function copilotHeaderValues(entry: FetchContext["entry"], configPath: string): CopilotHeaderValues {
  const values: CopilotHeaderValues = { ...COPILOT_HEADER_DEFAULTS };
  for (const field of OVERRIDE_FIELDS) {
    const raw = entry[field];
    if (raw === undefined || raw === null) continue;
    const value = typeof raw === "string" ? raw.trim() : "";
    if (!/^[\x21-\x7e]+( [\x21-\x7e]+)*$/.test(value)) {
      throw notConfigured(`providers[copilot].${field} is not a valid header value`, `Fix or remove "${field}" in ${configPath}.`);
    }
    values[field] = value;
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.apiVersion)) {
    throw notConfigured("providers[copilot].apiVersion must be a date like 2025-04-01", `Fix or remove "apiVersion" in ${configPath}.`);
  }
  if (entry.userAgent === undefined && entry.editorPluginVersion !== undefined) {
    const version = values.editorPluginVersion.split("/")[1];
    if (version) values.userAgent = `GitHubCopilotChat/${version}`;
  }
  return values;
}

export function copilotHeaders(token: string, values: CopilotHeaderValues): Record<string, string> {
  return {
    Authorization: `token ${token}`,
    Accept: "application/json",
    "Editor-Version": values.editorVersion,
    "Editor-Plugin-Version": values.editorPluginVersion,
    "User-Agent": values.userAgent,
    "X-GitHub-Api-Version": values.apiVersion,
  };
}

const Counters = z.object({ chat: looseNumber.nullish(), completions: looseNumber.nullish() });
const Quota = z.object({
  entitlement: looseNumber.nullish(),
  remaining: looseNumber.nullish(),
  quota_remaining: looseNumber.nullish(),
  percent_remaining: looseNumber.nullish(),
  quota_id: z.string().nullish(),
  unlimited: z.boolean().nullish(),
  overage_count: looseNumber.nullish(),
});
const UserResponse = z.object({
  copilot_plan: z.string().nullish(),
  quota_reset_date: z.string().nullish(),
  quota_reset_date_utc: z.string().nullish(),
  limited_user_reset_date: z.string().nullish(),
  quota_snapshots: z.record(z.string(), Quota).nullish(),
  monthly_quotas: Counters.nullish(),
  limited_user_quotas: Counters.nullish(),
  token_based_billing: z.boolean().nullish(),
});

/** The wire is snake_case; the spec (and some proxies) say camelCase. Fold camelCase keys into snake_case, snake wins. */
export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const snake = key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
    if (key === snake || !(snake in out)) out[snake] = snakeCaseKeys(inner);
  }
  return out;
}

export function decodeCopilotUser(body: string): CopilotReading {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    throw new QuotabarError("parse", `Failed to parse ${SERVICE} response: the body is not JSON`, {
      hint: "GitHub may have changed the API, or a proxy answered instead.",
    });
  }
  const user = decodeValue(snakeCaseKeys(raw), UserResponse, SERVICE);
  const snapshots: Record<string, CopilotQuota> = {};
  for (const [name, q] of Object.entries(user.quota_snapshots ?? {})) {
    snapshots[name] = {
      entitlement: q.entitlement ?? null,
      remaining: q.remaining ?? q.quota_remaining ?? null,
      percentRemaining: q.percent_remaining ?? null,
      quotaId: q.quota_id ?? "",
      unlimited: q.unlimited === true,
      overageCount: q.overage_count ?? null,
    };
  }
  const counters = (c: z.output<typeof Counters> | null | undefined) => ({ chat: c?.chat ?? null, completions: c?.completions ?? null });
  const nonEmpty = (s: string | null | undefined) => (s && s.trim() !== "" ? s.trim() : null);
  return {
    plan: nonEmpty(user.copilot_plan),
    snapshots,
    monthlyQuotas: counters(user.monthly_quotas),
    limitedUserQuotas: counters(user.limited_user_quotas),
    resetDate: nonEmpty(user.quota_reset_date_utc) ?? nonEmpty(user.quota_reset_date) ?? nonEmpty(user.limited_user_reset_date),
    tokenBasedBilling: user.token_based_billing === true,
  };
}

/** GitHub answers a retired API version with 400 (older docs) or 410 Gone; the editor headers fail alike. */
const OUTDATED_STATUSES = new Set([400, 406, 410, 415, 426]);
const OUTDATED_TEXT =
  /(api[-_ ]?version|editor[-_ ]?(plugin[-_ ]?)?version|plugin[-_ ]?version).*(unsupported|not supported|outdated|deprecated|invalid|no longer)|(unsupported|outdated|deprecated|upgrade required)/i;

export function copilotStrategy(http: HttpClient): FetchStrategy<CopilotCredential, CopilotReading> {
  return {
    source: "oauth",
    credentials: {
      async resolve(context) {
        const fromConfig = cleanSecret(context.entry.apiKey);
        if (fromConfig) return { token: fromConfig, from: "config" };
        const fromEnv = cleanSecret(context.env.COPILOT_API_TOKEN);
        return fromEnv ? { token: fromEnv, from: "env" } : null;
      },
    },
    missingCredential: (context) =>
      notConfigured(
        "GitHub Copilot is not logged in (no token found)",
        `Run \`quotabar login copilot\`, set COPILOT_API_TOKEN, or store a personal access token with read:user as providers[copilot].apiKey in ${context.configPath} (\`quotabar config set-key copilot --stdin\`).`,
      ),
    toSnapshot: copilotSnapshot,
    usage: {
      async fetch(credential, context) {
        const values = copilotHeaderValues(context.entry, context.configPath);
        const response = await http.request({
          url: COPILOT_USAGE_URL,
          headers: copilotHeaders(credential.token, values),
          service: SERVICE,
          secrets: [credential.token],
          signal: context.signal,
          timeoutMs: context.timeoutMs,
          acceptStatuses: "any",
        });
        if (response.status === 200) return decodeCopilotUser(response.body);
        throw usageError(response, credential, values, context.configPath);
      },
    },
  };
}

function usageError(response: HttpResponse, credential: CopilotCredential, values: CopilotHeaderValues, configPath: string): QuotabarError {
  const { status } = response;
  const said = githubMessage(response.body, credential.token);
  const detail = `HTTP ${status}${said ? `: ${said}` : ""}`;
  if (status === 401 || (status === 403 && header(response, "x-ratelimit-remaining") !== "0")) {
    return new QuotabarError(status === 401 ? "unauthorized" : "forbidden", `GitHub Copilot token invalid or lacking scope (${detail})`, {
      status,
      hint: tokenHint(credential, configPath),
    });
  }
  if (status === 403 || status === 429) {
    return new QuotabarError("rate_limited", `GitHub is rate limiting the Copilot usage request (${detail})`, {
      status,
      hint: "Retry in a few minutes.",
    });
  }
  if (OUTDATED_STATUSES.has(status) || (status < 500 && said !== null && OUTDATED_TEXT.test(said))) {
    return new QuotabarError("upstream", `Copilot usage fetch failed: the required API version header is outdated (${detail})`, {
      status,
      hint:
        `The editor and plugin version header values must be updated. Set newer values in the copilot entry of ${configPath}: ` +
        `"editorVersion" (now ${values.editorVersion}), "editorPluginVersion" (now ${values.editorPluginVersion}), ` +
        `"apiVersion" (now ${values.apiVersion}), optionally "userAgent" (now ${values.userAgent}); or update quotabar.`,
    });
  }
  if (status === 404) {
    return new QuotabarError("upstream", `GitHub Copilot API error (${detail})`, {
      status,
      hint: "GitHub has no Copilot usage for this token: the account may have no Copilot access, or the endpoint moved.",
    });
  }
  return new QuotabarError("upstream", `GitHub Copilot API error (${detail})`, {
    status,
    hint: status >= 500 ? "GitHub is having trouble; retry later (https://www.githubstatus.com)." : null,
  });
}

function tokenHint(credential: CopilotCredential, configPath: string): string {
  return credential.from === "env"
    ? "COPILOT_API_TOKEN was rejected: replace it with a valid token (a personal access token needs read:user), or unset it and log in with `quotabar login copilot`."
    : `Remove the copilot token from ${configPath} (\`quotabar logout copilot\`, or delete the copilot entry), log in again with \`quotabar login copilot\`, or use a personal access token with read:user (\`quotabar config set-key copilot --stdin\`).`;
}

/** GitHub's short `message` field (never the whole body), redacted and cut. */
function githubMessage(body: string, token: string): string | null {
  let message: unknown;
  try {
    message = (JSON.parse(body) as { message?: unknown } | null)?.message;
  } catch {
    message = body.length <= 200 ? body : null;
  }
  if (typeof message !== "string") return null;
  const flat = redact(message.replace(/\s+/g, " ").trim(), [token]);
  if (flat === "") return null;
  return flat.length > 200 ? `${flat.slice(0, 200)}...` : flat;
}

function header(response: HttpResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
