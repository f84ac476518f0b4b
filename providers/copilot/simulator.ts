import { randomBytes } from "node:crypto";
import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);
const fixtureJson = (name: string) => JSON.parse(fixture(name)) as Record<string, unknown>;

/** What `quotabar demo` and the tests put in COPILOT_API_TOKEN. */
export const COPILOT_TEST_TOKEN = "gho_simulatorEnvToken0123456789abcdefXY";
/** The token the simulated device flow hands out (the reference's sample); the usage route accepts it too. */
export const COPILOT_DEVICE_TOKEN = fixtureJson("access-token.json").access_token as string;
export const COPILOT_SIM_CLIENT_ID = "Iv1.b507a08c87ecfe98";
/** The simulator asks for 1 s between polls (GitHub says 5) so a login against it takes seconds. */
export const COPILOT_SIM_INTERVAL = 1;
/** In `outdated_api_version`, API versions older than this are refused. */
export const COPILOT_SIM_MIN_API_VERSION = "2026-06-01";
/** The GitHub Enterprise host the simulator also plays (config `enterpriseHost`); same routes as github.com. */
export const COPILOT_SIM_ENTERPRISE_HOST = "octocorp.ghe.com";
/** Levels of the `deeply_nested` answer: far past any recursion limit. */
export const COPILOT_SIM_NESTING = 100_000;

const ACCEPTED_TOKENS = new Set([COPILOT_TEST_TOKEN, COPILOT_DEVICE_TOKEN]);
const USAGE_FIXTURES: Record<string, string> = {
  ok: "user-individual.json",
  camel_case: "user-camel-case.json",
  unlimited: "user-unlimited.json",
  chat_only: "user-chat-only.json",
  free_counters: "user-free-counters.json",
  no_snapshots: "user-no-snapshots.json",
  malformed: "user-malformed.json",
  over_quota: "user-over-quota.json",
  token_billing: "user-token-billing.json",
  enterprise: "user-enterprise.json",
};

/** Device codes handed out, with how often each was polled and its current interval. */
const devices = new Map<string, { polls: number; interval: number }>();

const json = (status: number, body: string): SimReply => ({ status, body, headers: { "content-type": "application/json; charset=utf-8" } });

/** GitHub reads OAuth parameters from a form body (the real client) or a JSON body. */
function params(request: SimRequest): URLSearchParams {
  const type = String(request.headers["content-type"] ?? "");
  if (type.includes("application/json")) {
    const body = JSON.parse(request.body || "{}") as Record<string, unknown>;
    return new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)]));
  }
  return new URLSearchParams(request.body);
}

/** Without `Accept: application/json` GitHub answers OAuth calls form-encoded; so does the simulator. */
function oauthReply(request: SimRequest, payload: Record<string, unknown>, status = 200): SimReply {
  if (!String(request.headers.accept ?? "").includes("application/json")) {
    return { status, body: new URLSearchParams(Object.entries(payload).map(([k, v]): [string, string] => [k, String(v)])).toString() };
  }
  return { status, json: payload };
}

function deviceCode(request: SimRequest, scenario: string): SimReply {
  const form = params(request);
  if (form.get("client_id") !== COPILOT_SIM_CLIENT_ID) {
    return oauthReply(request, { error: "unauthorized_client", error_description: "The client_id is not valid." }, 400);
  }
  if (!(form.get("scope") ?? "").split(/[ ,]+/).includes("read:user")) {
    return oauthReply(request, { error: "invalid_scope", error_description: "The simulator expects scope read:user." }, 400);
  }
  const code = randomBytes(20).toString("hex");
  devices.set(code, { polls: 0, interval: COPILOT_SIM_INTERVAL });
  const sample = fixtureJson("device-code.json");
  const verification = scenario === "enterprise" ? { verification_uri: `https://${COPILOT_SIM_ENTERPRISE_HOST}/login/device` } : {};
  return oauthReply(request, { ...sample, ...verification, device_code: code, interval: COPILOT_SIM_INTERVAL });
}

/**
 * Token polling. `device_ok` (and every non-device scenario): pending, then slow_down, then the token.
 * `device_pending` never finishes, `device_expired` expires after one pending, `device_denied` is refused.
 */
function accessToken(request: SimRequest, scenario: string): SimReply {
  const form = params(request);
  if (form.get("client_id") !== COPILOT_SIM_CLIENT_ID) return oauthReply(request, { error: "incorrect_client_credentials" });
  if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:device_code")
    return oauthReply(request, { error: "unsupported_grant_type" });
  const device = devices.get(form.get("device_code") ?? "");
  if (!device) return oauthReply(request, { error: "incorrect_device_code", error_description: "The device_code provided is not valid." });
  device.polls += 1;
  const sample = (name: string) => fixtureJson(`${name}.json`);
  if (scenario === "device_denied") return oauthReply(request, sample("poll-denied"));
  if (scenario === "device_pending") return oauthReply(request, sample("poll-pending"));
  if (scenario === "device_expired") return oauthReply(request, device.polls === 1 ? sample("poll-pending") : sample("poll-expired"));
  if (device.polls === 1) return oauthReply(request, sample("poll-pending"));
  if (device.polls === 2) {
    device.interval += 1;
    return oauthReply(request, { ...sample("poll-slow-down"), interval: device.interval });
  }
  devices.delete(form.get("device_code") ?? "");
  return oauthReply(request, sample("access-token"));
}

function usage(request: SimRequest, scenario: string): SimReply {
  const auth = /^token (\S+)$/.exec(String(request.headers.authorization ?? ""));
  if (scenario === "unauthorized" || !auth || !ACCEPTED_TOKENS.has(auth[1] as string)) return json(401, fixture("bad-credentials.json"));
  if (scenario === "forbidden") {
    return json(
      403,
      JSON.stringify({ message: "Resource not accessible by personal access token", documentation_url: "https://docs.github.com/rest" }),
    );
  }
  if (scenario === "rate_limited") {
    return {
      ...json(403, fixture("rate-limited.json")),
      headers: { "content-type": "application/json", "x-ratelimit-remaining": "0" },
    };
  }
  const apiVersion = String(request.headers["x-github-api-version"] ?? "");
  const editorHeaders = ["editor-version", "editor-plugin-version", "user-agent"].every((h) =>
    /^\S+\/\S+/.test(String(request.headers[h] ?? "")),
  );
  if (!/^\d{4}-\d{2}-\d{2}$/.test(apiVersion) || !editorHeaders || !String(request.headers.accept ?? "").includes("application/json")) {
    return json(400, JSON.stringify({ message: "simulator: missing or malformed editor / API-version headers", status: "400" }));
  }
  if (scenario === "outdated_api_version" && apiVersion < COPILOT_SIM_MIN_API_VERSION)
    return json(400, fixture("api-version-unsupported.json"));
  if (scenario === "deeply_nested") {
    const nested = `${"[".repeat(COPILOT_SIM_NESTING)}${"]".repeat(COPILOT_SIM_NESTING)}`;
    return json(200, `{"copilot_plan":"individual","quota_snapshots":{"premium_interactions":{"entitlement":${nested}}}}`);
  }
  return json(200, fixture(USAGE_FIXTURES[scenario] ?? (USAGE_FIXTURES.ok as string)));
}

/** GitHub Copilot: usage on api.github.com, the OAuth device flow on github.com; the same on the enterprise host. */
export const copilotUpstream: SimulatedUpstream = {
  id: "copilot",
  origins: [
    "https://api.github.com",
    "https://github.com",
    `https://api.${COPILOT_SIM_ENTERPRISE_HOST}`,
    `https://${COPILOT_SIM_ENTERPRISE_HOST}`,
  ],
  env: { COPILOT_API_TOKEN: COPILOT_TEST_TOKEN },
  // the quota snapshots' timestamp_utc: a monthly reset 10 days ahead
  recordedAt: "2026-11-20T09:00:00Z",
  scenarios: [
    "ok",
    "camel_case",
    "unlimited",
    "chat_only",
    "free_counters",
    "no_snapshots",
    "over_quota",
    "token_billing",
    "enterprise",
    "deeply_nested",
    "outdated_api_version",
    "unauthorized",
    "forbidden",
    "rate_limited",
    "malformed",
    "slow",
    "upstream_500",
    "device_ok",
    "device_pending",
    "device_expired",
    "device_denied",
  ],
  routes: [
    { method: "GET", path: "/copilot_internal/user", handle: usage },
    { method: "POST", path: "/login/device/code", handle: deviceCode },
    { method: "POST", path: "/login/oauth/access_token", handle: accessToken },
  ],
};
