import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { bearer } from "../../simulator/auth.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** Claims the web app mirrors into x-msh-device-id, x-msh-session-id and x-traffic-id. */
export const KIMI_TEST_CLAIMS = { sub: "user-sim-42", device_id: "device-sim-7", ssid: "session-sim-9" };

/** A JWT-shaped kimi-auth cookie value (unsigned; Kimi's signature is never checked by the client). */
export const KIMI_TEST_TOKEN = `${base64url({ alg: "HS256", typ: "JWT" })}.${base64url({ ...KIMI_TEST_CLAIMS, exp: 1893456000 })}.c2ltdWxhdG9yLXNpZ25hdHVyZQ`;

const json = (name: string, status = 200): SimReply => ({ status, body: fixture(name), headers: { "content-type": "application/json" } });

/** The token must arrive both as a Bearer header and as the kimi-auth cookie, as the browser sends it. */
function authorized(request: SimRequest): boolean {
  const cookie = String(request.headers.cookie ?? "");
  return bearer(request) === KIMI_TEST_TOKEN && cookie.split(/;\s*/).includes(`kimi-auth=${KIMI_TEST_TOKEN}`);
}

function answer(request: SimRequest, scenario: string): SimReply {
  if (request.headers["connect-protocol-version"] !== "1" || !String(request.headers["content-type"]).startsWith("application/json")) {
    return { status: 415, json: { code: "invalid_argument", message: "connect: unsupported content type" } };
  }
  const body = JSON.parse(request.body || "{}") as { scope?: unknown };
  if (!Array.isArray(body.scope) || !body.scope.includes("FEATURE_CODING")) return json("unauthorized.json", 400);
  if (scenario === "unauthorized" || !authorized(request)) return json("unauthorized.json", 401);
  if (scenario === "forbidden") return { status: 403, json: { code: "permission_denied", message: "forbidden" } };
  const files: Record<string, string> = {
    tier_andante: "andante.json",
    tier_allegretto: "allegretto-exhausted.json",
    no_limit: "no-limit.json",
    other_scope: "other-scope-only.json",
    malformed: "malformed.json",
  };
  return json(files[scenario] ?? "moderato.json");
}

const SCENARIOS = [
  "ok",
  "tier_andante",
  "tier_allegretto",
  "no_limit",
  "other_scope",
  "unauthorized",
  "forbidden",
  "malformed",
  "slow",
  "upstream_500",
];

/** Kimi For Coding: a Connect-RPC JSON POST authorised by the kimi-auth cookie. */
export const kimiUpstream: SimulatedUpstream = {
  id: "kimi",
  origins: ["https://www.kimi.com"],
  env: { KIMI_AUTH_TOKEN: KIMI_TEST_TOKEN },
  scenarios: SCENARIOS,
  routes: [{ method: "POST", path: "/apiv2/kimi.gateway.billing.v1.BillingService/GetUsages", handle: answer }],
};
