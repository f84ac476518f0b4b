import {
  advice,
  homeOf,
  joinPath,
  QuotabarError,
  readTextIfPresent,
  toText,
  tryJson,
  valueAt,
  type FetchContext,
  type HttpResponse,
} from "../kit/index.js";
import { expiredSignIn, refreshByRunning } from "../kit/vendor-sign-in.js";
import { CLAUDE_CODE, claudeConfigDir, type ClaudeSignIn } from "./credentials.js";
import { planOf, type ClaudeReading } from "./policy.js";
import { usageOf } from "./usage-body.js";

export const API_ORIGIN = "https://api.anthropic.com";
const SERVICE = "Claude OAuth usage";
/** The account's email, asked of the profile endpoint when Claude Code's own config does not say, is kept a day. */
const KEPT_EMAIL = "email";
const EMAIL_TTL_MS = 24 * 3_600_000;
const PROFILE_TIMEOUT_MS = 3_000;

const SETUP_TOKEN = advice(
  "This token lacks the user:profile scope the usage endpoint needs: run `claude setup-token` for one that has it, or use --source web or cli.",
);

/** 401: the token is no longer good (Claude Code refreshes it when it runs). */
const refused = (response: HttpResponse) =>
  new QuotabarError("unauthorized", "Claude refused Claude Code's sign-in (HTTP 401)", {
    status: response.status,
    remedies: [refreshByRunning(CLAUDE_CODE)],
  });

/** 403: a token without the profile scope (a `setup-token` one says so), else not permitted. */
const forbidden = (response: HttpResponse) =>
  /user:profile/.test(response.body)
    ? new QuotabarError("forbidden", "Claude's usage endpoint refused the token: it lacks the user:profile scope", {
        status: response.status,
        remedies: [SETUP_TOKEN],
      })
    : new QuotabarError("forbidden", "Claude refused Claude Code's sign-in (HTTP 403)", {
        status: response.status,
        remedies: [refreshByRunning(CLAUDE_CODE)],
      });

/**
 * `GET /api/oauth/usage` with Claude Code's access token, as it is: an expired one (by its
 * `expiresAt`) or one without the `user:profile` scope is refused here, without a request. Its
 * refresh token is never used: Claude Code's refresh tokens rotate, so one use elsewhere would sign
 * the user out of Claude Code.
 */
export async function readClaudeOAuth(signIn: ClaudeSignIn, context: FetchContext): Promise<ClaudeReading> {
  const { facts } = signIn;
  const expired = expiredSignIn(facts.expiresAt, context.now(), facts.where, CLAUDE_CODE);
  if (expired) throw expired;
  if (signIn.lacksProfileScope) {
    throw new QuotabarError("forbidden", `Claude Code's sign-in ${facts.where} lacks the user:profile scope`, { remedies: [SETUP_TOKEN] });
  }
  const response = await context.http.request({
    url: `${API_ORIGIN}/api/oauth/usage`,
    service: SERVICE,
    headers: {
      authorization: `Bearer ${signIn.accessToken}`,
      "anthropic-beta": "oauth-2025-04-20",
      accept: "application/json",
      "content-type": "application/json",
      "user-agent": "claude-code/2.1.70",
    },
    statusRules: { 401: refused, 403: forbidden },
  });
  return {
    usage: usageOf(response.body, SERVICE),
    plan: planOf(facts.subscriptionType, facts.rateLimitTier),
    email: await accountEmail(signIn, context),
    organization: null,
    prepaid: null,
  };
}

/**
 * Whose sign-in it is: `oauthAccount.emailAddress` of Claude Code's own config (`~/.claude.json`, or
 * `.claude.json` in `CLAUDE_CONFIG_DIR`), else the profile endpoint (best effort, kept a day).
 */
async function accountEmail(signIn: ClaudeSignIn, context: FetchContext): Promise<string | null> {
  const { dir, chosen } = claudeConfigDir(context);
  const path = chosen === null ? joinPath(homeOf(context.env), ".claude.json") : joinPath(dir, ".claude.json");
  const config = await readTextIfPresent(path, 4 * 1024 * 1024).catch(() => null);
  const local = config === null ? null : emailIn(tryJson(config), ["oauthAccount.emailAddress"]);
  if (local) return local;
  const kept = toText(await context.kept.read(KEPT_EMAIL).catch(() => null));
  if (kept) return kept;
  try {
    const response = await context.http.request({
      url: `${API_ORIGIN}/api/oauth/profile`,
      service: "Claude OAuth profile",
      timeoutMs: PROFILE_TIMEOUT_MS,
      headers: { authorization: `Bearer ${signIn.accessToken}`, accept: "application/json", "content-type": "application/json" },
    });
    const email = emailIn(tryJson(response.body), [
      "account.email",
      "account.email_address",
      "account.emailAddress",
      "email",
      "email_address",
    ]);
    if (email) await context.kept.write(KEPT_EMAIL, email, EMAIL_TTL_MS).catch(() => undefined);
    return email;
  } catch {
    return null; // the account is a detail: its absence never fails the usage
  }
}

/** The first path holding something shaped like an email address. */
export function emailIn(value: unknown, paths: readonly string[]): string | null {
  for (const path of paths) {
    const text = toText(valueAt(value, path));
    if (text && text.length <= 320 && /^[^\s@]+@[^\s@]+$/.test(text)) return text;
  }
  return null;
}
