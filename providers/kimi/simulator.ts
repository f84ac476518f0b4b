import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { bearer } from "../../simulator/auth.js";
import { fixtureReplies, fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** Claims the web app mirrors into x-msh-device-id, x-msh-session-id and x-traffic-id. */
export const KIMI_TEST_CLAIMS = { sub: "user-sim-42", device_id: "device-sim-7", ssid: "session-sim-9" };

/** A JWT-shaped kimi-auth cookie value (unsigned; Kimi's signature is never checked by the client). */
export const KIMI_TEST_TOKEN = `${base64url({ alg: "HS256", typ: "JWT" })}.${base64url({ ...KIMI_TEST_CLAIMS, exp: 1893456000 })}.c2ltdWxhdG9yLXNpZ25hdHVyZQ`;
export const KIMI_TEST_API_KEY = "sk-kimi-simulator-api-key-0123456789";
/** The `access_token` of `fixtures/cli-credentials.json` (the Kimi Code CLI's credentials file). */
export const KIMI_TEST_CLI_TOKEN = "kimi-code-cli-simulator-access-0123456789";

/** Where each call lands: the Kimi Code API, and the console's two Connect-RPC methods. */
export const KIMI_PATHS = {
  codeApi: "/coding/v1/usages",
  getUsages: "/apiv2/kimi.gateway.billing.v1.BillingService/GetUsages",
  stats: "/apiv2/kimi.gateway.membership.v2.MembershipService/GetSubscriptionStats",
} as const;

/** Fixtures recorded at another moment than the upstream's `recordedAt`. */
const RECORDED_AT: Record<string, string> = { "no-limit.json": "2026-11-20T12:00:00Z" };
const { json, recorded } = fixtureReplies(import.meta.url, RECORDED_AT);
const forbidden: SimReply = { status: 403, json: { code: "permission_denied", message: "forbidden" } };

/** GetUsages bodies of the web-era scenarios; the Code API plays the same counters in its own shape. */
const WEB_FILES: Record<string, string> = {
  tier_andante: "andante.json",
  tier_allegretto: "allegretto-exhausted.json",
  no_limit: "no-limit.json",
  other_scope: "other-scope-only.json",
  malformed: "malformed.json",
};

/** The token must arrive both as a Bearer header and as the kimi-auth cookie, as the browser sends it. */
function webAuthorized(request: SimRequest): boolean {
  const cookie = String(request.headers.cookie ?? "");
  return bearer(request) === KIMI_TEST_TOKEN && cookie.split(/;\s*/).includes(`kimi-auth=${KIMI_TEST_TOKEN}`);
}

/** The checks both Connect-RPC calls of the console share; a reply when they fail. */
function connectRefusal(request: SimRequest, scenario: string): SimReply | null {
  if (request.headers["connect-protocol-version"] !== "1" || !String(request.headers["content-type"]).startsWith("application/json")) {
    return { status: 415, json: { code: "invalid_argument", message: "connect: unsupported content type" } };
  }
  if (scenario === "unauthorized" || !webAuthorized(request)) return json("unauthorized.json", 401);
  return scenario === "forbidden" ? forbidden : null;
}

function getUsages(request: SimRequest, scenario: string): SimReply {
  const body = JSON.parse(request.body || "{}") as { scope?: unknown };
  if (!Array.isArray(body.scope) || !body.scope.includes("FEATURE_CODING")) return json("unauthorized.json", 400);
  return connectRefusal(request, scenario) ?? json(WEB_FILES[scenario] ?? "moderato.json");
}

function subscriptionStats(request: SimRequest, scenario: string): SimReply {
  const refusal = connectRefusal(request, scenario);
  if (refusal) return refusal;
  if (scenario === "stats_failing") return { status: 500, body: "Internal Server Error" };
  if (scenario === "stats_hidden") return json("subscription-stats-hidden.json");
  return { ...json("subscription-stats.json"), ...(scenario === "stats_slow" ? { delayMs: 60_000 } : {}) };
}

/** A GetUsages fixture as the Code API answers it: `{ usage, limits }` of the coding scope. */
function asCodeApi(webFile: string): SimReply {
  const web = JSON.parse(fixture(webFile)) as { usages: { scope: string; detail: unknown; limits?: unknown }[] };
  const coding = web.usages.find((u) => u.scope === "FEATURE_CODING");
  return coding ? { json: { usage: coding.detail, limits: coding.limits ?? null }, ...recorded(webFile) } : json("code-api-no-usage.json");
}

/** The CLI's token is accepted only with the CLI's identity headers. */
function cliIdentified(request: SimRequest): boolean {
  return request.headers["x-msh-platform"] === "kimi_code_cli" && typeof request.headers["x-msh-version"] === "string";
}

function codeApi(request: SimRequest, scenario: string): SimReply {
  const token = bearer(request);
  const isKey = token === KIMI_TEST_API_KEY;
  const isCli = token === KIMI_TEST_CLI_TOKEN && cliIdentified(request);
  const rejected: SimReply = { status: 401, json: { error: { type: "authentication_error", message: "invalid api key" } } };
  if (!(isKey || isCli) || request.headers.accept !== "application/json") return rejected;
  if (scenario === "unauthorized" || (scenario === "api_key_rejected" && isKey)) return rejected;
  if (scenario === "forbidden" || scenario === "api_forbidden") return forbidden;
  if (scenario === "api_bad_request") return { status: 400, json: { error: { message: "bad request" } } };
  if (scenario === "api_no_usage") return json("code-api-no-usage.json");
  if (scenario === "code_api_hourly") return json("code-api-hourly.json");
  if (scenario === "code_api_flat") return json("code-api-flat-limits.json");
  if (scenario === "code_api_root_limits") return json("code-api-root-limits.json");
  if (scenario === "code_api_root_weekly") return json("code-api-root-limits-weekly.json");
  const webFile = WEB_FILES[scenario];
  return webFile ? asCodeApi(webFile) : json("code-api.json");
}

const SCENARIOS = [
  "ok",
  "code_api_hourly",
  "code_api_flat",
  "code_api_root_limits",
  "code_api_root_weekly",
  "tier_andante",
  "tier_allegretto",
  "no_limit",
  "other_scope",
  "malformed",
  "api_key_rejected",
  "api_forbidden",
  "api_bad_request",
  "api_no_usage",
  "unauthorized",
  "forbidden",
  "stats_hidden",
  "stats_failing",
  "stats_slow",
  "slow",
  "upstream_500",
];

/**
 * Kimi: the Kimi Code API (an API key or the Kimi Code CLI's token) and the console's Connect-RPC
 * calls (the kimi-auth cookie): GetUsages and GetSubscriptionStats.
 */
export const kimiUpstream: SimulatedUpstream = {
  id: "kimi",
  origins: ["https://api.kimi.com", "https://www.kimi.com"],
  env: { KIMI_CODE_API_KEY: KIMI_TEST_API_KEY, KIMI_AUTH_TOKEN: KIMI_TEST_TOKEN },
  // inside every 5-hour (and 4-hour) window of the March fixtures, days before the weekly resets
  recordedAt: "2026-03-10T13:30:00Z",
  scenarios: SCENARIOS,
  routes: [
    { method: "GET", path: KIMI_PATHS.codeApi, handle: codeApi },
    { method: "POST", path: KIMI_PATHS.getUsages, handle: getUsages },
    { method: "POST", path: KIMI_PATHS.stats, handle: subscriptionStats },
  ],
};
