import { advice, decodeValue, header, isObject, parseBoundedJson, QuotabarError, snakeKeys, tryJson } from "../kit/index.js";
import { zCount, zFlag, zLeft } from "../kit/schema.js";
import type { FetchContext, HttpResponse, ProviderHttp, Remedy } from "../kit/index.js";
import * as z from "../../domain/zod.js";
import { personalToken, signIn, type CopilotCredential } from "./credentials.js";
import { copilotHeaders, copilotHeaderValues, HEADER_FIELDS, setHeaderField, type CopilotHeaderValues } from "./editor-headers.js";
import { githubOrigins } from "./github-host.js";
import type { CopilotQuota, CopilotReading } from "./policy.js";

const USAGE_PATH = "/copilot_internal/user";
const SERVICE = "GitHub Copilot";

// What is left (remaining, percent_remaining, limited_user_quotas) goes below zero past the quota
// (GitHub's over-quota answer: remaining -12, percent_remaining -4.0 of 300); totals and counters
// never do, so a negative one is a parse error naming its field. More than all of it left is nothing
// used (domain/coerce's rule).
const left = z.nullish(zLeft);
const count = z.nullish(zCount);
/** A percent below zero beside a count still above zero says two things at once: no reading. */
function percentLeftProblem(percent: number, remaining: number | null | undefined): string | null {
  if (percent < 0 && remaining != null && remaining > 0) return `must not be below zero while remaining is ${remaining} (got ${percent})`;
  return null;
}
const Quota = z
  .object({
    entitlement: count,
    remaining: left,
    quota_remaining: left,
    percent_remaining: left,
    quota_id: z.nullish(z.string()),
    unlimited: z.optional(zFlag),
    overage_count: count,
    credits_used: count,
  })
  .check(
    z.superRefine((quota, context) => {
      const problem =
        quota.percent_remaining == null ? null : percentLeftProblem(quota.percent_remaining, quota.remaining ?? quota.quota_remaining);
      if (problem !== null) context.addIssue({ code: "custom", path: ["percent_remaining"], message: problem });
    }),
  );
const Totals = z.object({ chat: count, completions: count });
const UserResponse = z.object({
  copilot_plan: z.nullish(z.string()),
  quota_reset_date: z.nullish(z.string()),
  quota_reset_date_utc: z.nullish(z.string()),
  limited_user_reset_date: z.nullish(z.string()),
  quota_snapshots: z.nullish(z.record(z.string(), z.nullable(Quota))),
  monthly_quotas: z.nullish(Totals),
  limited_user_quotas: z.nullish(z.object({ chat: left, completions: left })),
  token_based_billing: z.optional(zFlag),
  credits_used: count,
});

/** The wire is snake_case; some proxies answer camelCase, folded into snake_case (snake wins). */
export function decodeCopilotUser(body: string): CopilotReading {
  const user = decodeValue(snakeKeys(parseBoundedJson(body, SERVICE)), UserResponse, SERVICE);
  const snapshots: Record<string, CopilotQuota> = {};
  for (const [name, q] of Object.entries(user.quota_snapshots ?? {})) {
    if (q === null) continue;
    snapshots[name] = {
      entitlement: q.entitlement ?? null,
      remaining: q.remaining ?? q.quota_remaining ?? null,
      percentRemaining: q.percent_remaining ?? null,
      quotaId: q.quota_id ?? "",
      unlimited: q.unlimited === true,
      overageCount: q.overage_count ?? null,
      creditsUsed: q.credits_used ?? null,
    };
  }
  const counters = (c: { chat?: number | null; completions?: number | null } | null | undefined) => ({
    chat: c?.chat ?? null,
    completions: c?.completions ?? null,
  });
  const nonEmpty = (s: string | null | undefined) => (s && s.trim() !== "" ? s.trim() : null);
  return {
    plan: nonEmpty(user.copilot_plan),
    snapshots,
    monthlyQuotas: counters(user.monthly_quotas),
    limitedUserQuotas: counters(user.limited_user_quotas),
    resetDate: nonEmpty(user.quota_reset_date_utc) ?? nonEmpty(user.quota_reset_date) ?? nonEmpty(user.limited_user_reset_date),
    tokenBasedBilling: user.token_based_billing === true,
    creditsUsed: user.credits_used ?? null,
  };
}

export async function readCopilot(credential: CopilotCredential, { entry, http }: FetchContext): Promise<CopilotReading> {
  const values = copilotHeaderValues(entry);
  const origins = githubOrigins(entry);
  const refused = (response: HttpResponse) => usageError(response, credential, values, origins.enterpriseHost, http);
  const response = await http.request({
    url: `${origins.api}${USAGE_PATH}`,
    headers: copilotHeaders(credential.token, values),
    statusRules: { "4xx": refused, "5xx": refused },
  });
  if (response.status !== 200) throw refused(response);
  return decodeCopilotUser(response.body);
}

/** GitHub answers a retired API version with 400 (older docs) or 410 Gone; the editor headers fail alike. */
const OUTDATED_STATUSES = new Set([400, 406, 410, 415, 426]);
const OUTDATED_TEXT =
  /(api[-_ ]?version|editor[-_ ]?(plugin[-_ ]?)?version|plugin[-_ ]?version).*(unsupported|not supported|outdated|deprecated|invalid|no longer)|(unsupported|outdated|deprecated|upgrade required)/i;

/** Every answer but 200 gets GitHub's own words; the generic table knows neither scopes nor retired headers. */
function usageError(
  response: HttpResponse,
  credential: CopilotCredential,
  values: CopilotHeaderValues,
  enterpriseHost: string | null,
  http: ProviderHttp,
): QuotabarError {
  const { status } = response;
  const said = githubMessage(response.body, http);
  const detail = `HTTP ${status}${said ? `: ${said}` : ""}`;
  const fail = (code: QuotabarError["code"], message: string, remedies: Remedy[]) => new QuotabarError(code, message, { status, remedies });
  // a 403 with the rate limit spent is a rate limit, any other 403 a token without the scope
  const rateLimited = status === 429 || (status === 403 && header(response.headers, "x-ratelimit-remaining") === "0");
  if (status === 401 || (status === 403 && !rateLimited)) {
    const which = credential.stored ? "The stored token" : "The token in the environment";
    return fail(status === 401 ? "unauthorized" : "forbidden", `GitHub Copilot token invalid or lacking scope (${detail})`, [
      advice(`${which} was rejected: it was revoked, expired, or lacks read:user.`),
      ...(enterpriseHost ? [advice(`It must be a token of ${enterpriseHost}, where the sign-in goes when that host is set.`)] : []),
      signIn,
      ...personalToken,
    ]);
  }
  if (rateLimited) return fail("rate_limited", `GitHub is rate limiting the Copilot usage request (${detail})`, [{ kind: "retry" }]);
  if (OUTDATED_STATUSES.has(status) || (status < 500 && said !== null && OUTDATED_TEXT.test(said))) {
    return fail("upstream", `Copilot usage fetch failed: the required API version header is outdated (${detail})`, [
      advice(
        "The editor and plugin version header values must be updated; now sent: " +
          `Editor-Version ${values.editorVersion}, Editor-Plugin-Version ${values.editorPluginVersion}, ` +
          `X-GitHub-Api-Version ${values.apiVersion}, User-Agent ${values.userAgent}.`,
      ),
      ...HEADER_FIELDS.map((field) => setHeaderField(field)),
      advice("Or update quotabar."),
    ]);
  }
  if (status === 404) {
    return fail("upstream", `GitHub Copilot API error (${detail})`, [
      advice("GitHub has no Copilot usage for this token: the account may have no Copilot access, or the endpoint moved."),
    ]);
  }
  const trouble: Remedy[] =
    status >= 500 ? [advice("GitHub is having trouble."), { kind: "retry", url: "https://www.githubstatus.com" }] : [];
  return fail("upstream", `GitHub Copilot API error (${detail})`, trouble);
}

/** GitHub's short `message` field (never the whole body), redacted and cut. */
function githubMessage(body: string, http: ProviderHttp): string | null {
  const parsed = tryJson(body);
  // text that is not JSON at all (a proxy's page) is shown when short; tryJson answers null for it
  const said = isObject(parsed) ? parsed.message : parsed === null && body.trim() !== "null" && body.length <= 200 ? body : null;
  if (typeof said !== "string") return null;
  return http.excerpt(said) || null;
}
