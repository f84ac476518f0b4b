import { notConfigured, withFreshCookieRetry, type FetchStrategy, type ProviderCode } from "../kit/index.js";
import { withRequestCooldown } from "../kit/request-cooldown.js";
import { claudeCookie, COOKIE_ENV } from "./cookies.js";
import { findClaudeCli, findClaudeSignIn, type ClaudeSignIn } from "./credentials.js";
import { claudeSnapshot, type ClaudeReading } from "./policy.js";

const notSignedIn = () =>
  notConfigured(
    "Claude Code is not signed in here (no ~/.claude/.credentials.json), no claude.ai cookie was found, and the claude CLI is not on PATH",
    { kind: "advice", text: "Run `claude` and sign in; or sign in at claude.ai in a browser." },
    { kind: "set-cookie", provider: "claude", env: COOKIE_ENV, from: "claude.ai" },
  );

/** Any failure of one source lets the next try, but a malformed answer (the API changed: say so). */
const nextOnFailure = (error: { code: string }) => error.code !== "parse";
/**
 * The same for OAuth, but a rate limit: claude.ai and the CLI read the same limited endpoint, so
 * during the cooldown the last snapshot is served stale and nothing is asked.
 */
const nextAfterOAuth = (error: { code: string }) => nextOnFailure(error) && error.code !== "rate_limited";

/**
 * `GET /api/oauth/usage` with Claude Code's own sign-in, read only (never refreshed, never written).
 * The endpoint rate-limits hard: asked at most once a minute per credential, not at all while a 429
 * cools down (Retry-After, else 5 minutes), whatever polls.
 */
export const claudeOAuth: FetchStrategy<ClaudeSignIn, ClaudeReading> = withRequestCooldown(
  {
    source: "oauth",
    credentials: { resolve: findClaudeSignIn },
    missingCredential: notSignedIn,
    toSnapshot: claudeSnapshot,
    fallbackOn: nextAfterOAuth,
    fetch: async (signIn, context) => (await import("./wire.js")).readClaudeOAuth(signIn, context),
  },
  { name: "claude-oauth-usage", service: "Claude's usage endpoint", minIntervalMs: 60_000, defaultCooldownMs: 5 * 60_000 },
);

/** claude.ai with its `sessionKey` cookie: the organization's usage, extra usage, prepaid credits. */
const web: FetchStrategy<string, ClaudeReading> = {
  source: "web",
  credentials: claudeCookie,
  missingCredential: notSignedIn,
  toSnapshot: claudeSnapshot,
  fallbackOn: nextOnFailure,
  fetch: async (cookie, context) => (await import("./wire-web.js")).readClaudeWeb(cookie, context),
};

/**
 * The `claude` CLI's `/usage` panel, in a pseudo-terminal: the last resort. It reads the same limited
 * endpoint, and starting it costs seconds: the same cooldown keeps a status bar from starting it on
 * every poll.
 */
export const claudeCli: FetchStrategy<string, ClaudeReading> = withRequestCooldown(
  {
    source: "cli",
    credentials: { resolve: findClaudeCli },
    missingCredential: notSignedIn,
    toSnapshot: claudeSnapshot,
    fetch: async (binary, context) => (await import("./wire-cli.js")).readClaudeCli(binary, context),
  },
  { name: "claude-cli-usage", service: "The claude CLI's /usage", minIntervalMs: 60_000, defaultCooldownMs: 5 * 60_000 },
);

/** OAuth with Claude Code's sign-in, then claude.ai's cookie, then the CLI; auto says which answered. */
export const claude: ProviderCode = {
  strategies: [claudeOAuth, ...withFreshCookieRetry(web), claudeCli],
  simulator: async () => (await import("./simulator.js")).claudeUpstream,
};
