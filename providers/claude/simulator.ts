import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FixtureDates, SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

/** The access token of the seeded `~/.claude/.credentials.json` (its refresh token is never sent anywhere). */
export const CLAUDE_TEST_TOKEN = "sk-ant-oat01-Zq3vT8mK2pX9wLr4nB7cYd1hF6jQs0uE";
export const CLAUDE_TEST_REFRESH_TOKEN = "sk-ant-ort01-Hk9wR2tY7mN4bV8cX1zL5pQ3sD6fG0jA";
export const CLAUDE_TEST_SESSION = "sk-ant-sid01-Wm4kP9xT2vR7nB3cL8yQ1dZ6hJ5fS0gE";
/** When the fixtures were recorded: 3 hours before the session window of usage.json resets. */
const RECORDED_AT = "2026-08-21T14:00:00Z";

/**
 * `ok` (flat windows, Sonnet, extra usage), `limits` (structured limits[]), `spend_only` (no window,
 * a EUR spend limit), `rate_limited` (429, Retry-After 300), `unauthorized` (401), `scope` (403
 * user:profile), `expired_token` (the seeded sign-in's expiresAt is past: no request is made),
 * `malformed`, `not_json`.
 */
const SCENARIOS = [
  "ok",
  "limits",
  "spend_only",
  "rate_limited",
  "unauthorized",
  "scope",
  "expired_token",
  "malformed",
  "not_json",
  "slow",
  "upstream_500",
];

const json = (name: string, status = 200, headers: Record<string, string> = {}): SimReply => ({
  status,
  body: fixture(name),
  headers: { "content-type": "application/json", ...headers },
});

const authorized = (request: SimRequest) => request.headers.authorization === `Bearer ${CLAUDE_TEST_TOKEN}`;

function oauthUsage(request: SimRequest, scenario: string): SimReply {
  if (!authorized(request) || scenario === "unauthorized") return json("error-expired.json", 401);
  if (request.headers["anthropic-beta"] !== "oauth-2025-04-20")
    return { status: 400, json: { type: "error", error: { type: "invalid_request_error" } } };
  if (scenario === "scope") return json("error-scope.json", 403);
  if (scenario === "rate_limited") return json("error-rate-limit.json", 429, { "retry-after": "300" });
  if (scenario === "malformed") return json("usage-malformed.json");
  if (scenario === "not_json") return { body: "<!doctype html><title>Just a moment...</title>", headers: { "content-type": "text/html" } };
  if (scenario === "limits") return json("usage-limits.json");
  if (scenario === "spend_only") return json("usage-spend-only.json");
  return json("usage.json");
}

const profile = (request: SimRequest): SimReply => (authorized(request) ? json("profile.json") : json("error-expired.json", 401));

const signedIn = (request: SimRequest) => String(request.headers.cookie ?? "") === `sessionKey=${CLAUDE_TEST_SESSION}`;
const web =
  (name: string) =>
  (request: SimRequest): SimReply =>
    signedIn(request)
      ? json(name)
      : { status: 403, json: { type: "error", error: { type: "permission_error", message: "Invalid authorization" } } };

/** Claude's OAuth API (usage, profile) and claude.ai's web API; `seedHome` lays out Claude Code's sign-in. */
export const claudeUpstream: SimulatedUpstream = {
  id: "claude",
  origins: ["https://api.anthropic.com", "https://claude.ai"],
  env: { CLAUDE_COOKIE: `sessionKey=${CLAUDE_TEST_SESSION}` },
  recordedAt: RECORDED_AT,
  scenarios: SCENARIOS,
  routes: [
    { method: "GET", path: "/api/oauth/usage", handle: oauthUsage },
    { method: "GET", path: "/api/oauth/profile", handle: profile },
    { method: "GET", path: "/api/organizations", handle: web("organizations.json") },
    { method: "GET", path: "/api/organizations/org-chat/usage", handle: web("web-usage.json") },
    { method: "GET", path: "/api/organizations/org-chat/overage_spend_limit", handle: web("overage-spend-limit.json") },
    { method: "GET", path: "/api/organizations/org-chat/prepaid/credits", handle: web("prepaid-credits.json") },
    { method: "GET", path: "/api/account", handle: web("account.json") },
  ],
  seedHome: async (home, scenario, dates) => {
    seedClaudeHome(home, scenario, dates);
  },
};

/** `~/.claude/.credentials.json` as Claude Code writes it (0600); `expired_token` has an expiry an hour before the recording. */
export function seedClaudeHome(home: string, scenario = "ok", dates: FixtureDates = (text) => text): string {
  const dir = join(home, ".claude");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let text = fixture("credentials.json");
  if (scenario === "expired_token") text = text.replace("4102444800000", String(Date.parse(RECORDED_AT) - 3_600_000));
  const path = join(dir, ".credentials.json");
  writeFileSync(path, dates(text), { mode: 0o600 });
  return path;
}

/** What the stand-in `claude` prints for `/usage`. */
const CLI_PLAYS: Record<string, string> = {
  ok: "cli-usage.txt",
  not_signed_in: "cli-not-signed-in.txt",
  rate_limited: "cli-rate-limited.txt",
};
export const CLAUDE_CLI_SCENARIOS = Object.keys(CLI_PLAYS);

/**
 * A stand-in `claude` in `dir` (a POSIX shell script): given `/usage`, it prints the scenario's panel
 * and records its arguments beside itself (`claude.calls`); put `dir` first on PATH.
 */
export function writeFakeClaude(dir: string, scenario = "ok"): string {
  const name = CLI_PLAYS[scenario];
  if (!name) throw new Error(`Unknown claude CLI scenario "${scenario}"; known: ${CLAUDE_CLI_SCENARIOS.join(", ")}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "claude.out"), fixture(name));
  const path = join(dir, "claude");
  const here = dir.replaceAll("'", `'\\''`);
  writeFileSync(
    path,
    `#!/bin/sh\nprintf '%s\\n' "$*" >> '${here}/claude.calls'\n[ -t 0 ] && echo tty >> '${here}/claude.calls'\n[ "$1" = "/usage" ] || exit 2\ncat '${here}/claude.out'\n`,
  );
  chmodSync(path, 0o755);
  return path;
}
