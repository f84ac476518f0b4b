import { decodeJson, QuotabarError, type FetchContext, type HttpResponse } from "../kit/index.js";
import { expiredSignIn } from "../kit/vendor-sign-in.js";
import { USER_AGENT } from "../../domain/version.js";
import { authFileOf, CODEX, codexHome, emailOf, planClaimOf, RUN_CODEX, type CodexSignIn } from "./credentials.js";
import type { CodexReading } from "./policy.js";
import { readingOfUsage, UsageSchema } from "./wire-usage.js";

const USAGE_URL = "https://chatgpt.com/backend-api/wham/usage";
const SERVICE = "Codex";

const refused = (response: HttpResponse) =>
  new QuotabarError("unauthorized", `Codex's ChatGPT sign-in was refused (HTTP ${response.status}).`, {
    status: response.status,
    remedies: [RUN_CODEX],
  });

/**
 * `GET chatgpt.com/backend-api/wham/usage` with the access token and account id of auth.json, the
 * request Codex makes itself. An expired token is not sent.
 */
export async function readCodexUsage(signIn: CodexSignIn, context: FetchContext): Promise<CodexReading> {
  if ("problem" in signIn) throw signIn.problem();
  const now = context.now();
  // Codex renews it on its next run; quotabar never uses the refresh token (it changes on every use)
  const expired = expiredSignIn(signIn.expiresAtMs, now, authFileOf(codexHome(context)), CODEX);
  if (expired) throw expired;
  const headers: Record<string, string> = {
    Authorization: `Bearer ${signIn.accessToken}`,
    Accept: "application/json",
    "User-Agent": USER_AGENT,
  };
  if (signIn.accountId) headers["ChatGPT-Account-Id"] = signIn.accountId;
  const response = await context.http.request({ url: USAGE_URL, headers, statusRules: { 401: refused, 403: refused } });
  const reading = readingOfUsage(decodeJson(response.body, UsageSchema, SERVICE), now);
  return {
    ...reading,
    plan: reading.plan ?? planClaimOf(signIn.idToken),
    email: emailOf(signIn.idToken) ?? reading.email,
  };
}
