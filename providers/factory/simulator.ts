import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { bearer } from "../../simulator/auth.js";
import { fixturesOf } from "../../simulator/fixtures.js";
import { cookieValue } from "../kit/index.js";
import { SESSION_FILE_NAME } from "./session-file.js";
import { WORKOS_CLIENT_IDS } from "./workos.js";

const fixture = fixturesOf(import.meta.url);
const USER = "user_01JB6W5H8F3C2A9V7E0RQ1YTNX";
const ORG = "org_01JB6W3Q2X0R8T5N1Z4K7MPD9C";
const jwt = (claims: object) => `eyJhbGciOiJSUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.c2ltdWxhdG9yLXNpZ25lZA`;
const minted = JSON.parse(fixture("workos-token.json")) as { access_token: string; refresh_token: string };

/** The credentials the simulated Factory and WorkOS accept (tests put them where each step looks). */
export const FACTORY_SIM = {
  /** `wos-session`, Factory's session cookie. */
  sessionCookie: "sim-wos-session-7f3a9c2e5b1d4f60",
  /** A stored bearer token (a JWT for the organisation, valid until 2100). */
  bearer: jwt({ sub: USER, org_id: ORG, exp: 4_102_444_800 }),
  /** A bearer whose `exp` has passed. */
  expiredBearer: jwt({ sub: USER, org_id: ORG, exp: 1_700_000_000 }),
  /** A WorkOS refresh token it exchanges. */
  refreshToken: "sim-refresh-3sL8yB4nD1fH6jZ0cA5eRt7kP2mQ9vXw",
  /** The `wos-session` cookie of workos.com that mints with `useCookie`. */
  workosCookie: "sim-workos-session-9c2e5b1d4f607f3a",
  /** What WorkOS mints (the reference's sample answer). */
  mintedBearer: minted.access_token,
  rotatedRefreshToken: minted.refresh_token,
  userId: USER,
  organizationId: ORG,
};

/** Whether Factory takes the request's credential; a bearer it does not know is refused even beside good cookies. */
function signedIn(request: SimRequest, scenario: string): boolean {
  const token = bearer(request);
  if (token !== null) return token === FACTORY_SIM.mintedBearer || (token === FACTORY_SIM.bearer && scenario !== "bearer_expired");
  return cookieValue(String(request.headers.cookie ?? ""), "wos-session") === FACTORY_SIM.sessionCookie;
}

const json = (name: string, status = 200): SimReply => ({ status, body: fixture(name), headers: { "content-type": "application/json" } });

/** The Factory API checks, the same on each base: its client header, then the session. */
function refused(request: SimRequest, scenario: string): SimReply | null {
  if (request.headers["x-factory-client"] !== "web-app") return { status: 400, json: { error: "missing x-factory-client" } };
  if (scenario === "signed_out" || !signedIn(request, scenario)) return json("not-logged-in.json", 401);
  return null;
}

function usage(request: SimRequest, scenario: string, useCache: unknown): SimReply {
  if (useCache !== true && useCache !== "true") return { status: 400, json: { error: "useCache is required" } };
  const denied = refused(request, scenario);
  if (denied) return denied;
  if (scenario === "unlimited") return json("usage-unlimited.json");
  if (scenario === "non_numeric") return json("usage-non-numeric.json");
  return json("usage.json");
}

function authenticate(request: SimRequest, scenario: string): SimReply {
  const body = JSON.parse(request.body || "{}") as Record<string, unknown>;
  if (!WORKOS_CLIENT_IDS.includes(String(body.client_id)) || body.grant_type !== "refresh_token")
    return json("workos-invalid-client.json", 400);
  if (scenario === "first_client_refused" && body.client_id === WORKOS_CLIENT_IDS[0]) return json("workos-invalid-client.json", 400);
  if (scenario === "mint_refused") return json("workos-missing-refresh.json", 400);
  if (scenario === "mint_expired") return json("workos-invalid-grant.json", 400);
  if (body.useCookie === true) {
    const session = cookieValue(String(request.headers.cookie ?? ""), "wos-session");
    return session === FACTORY_SIM.workosCookie ? json("workos-token.json") : json("workos-missing-refresh.json", 400);
  }
  if (typeof body.refresh_token !== "string" || body.refresh_token === "") return json("workos-missing-refresh.json", 400);
  const known = [FACTORY_SIM.refreshToken, FACTORY_SIM.rotatedRefreshToken].includes(body.refresh_token);
  return known ? json("workos-token.json") : json("workos-invalid-grant.json", 400);
}

/**
 * Factory on its three bases (each answers alike) and WorkOS's token endpoint. Scenarios:
 * `signed_out` refuses every session, `bearer_expired` the stored bearer only, `stale_token` answers
 * 409 to a cookie set sent with a bearer, `user_profile` names the user in `/auth/me` (the current
 * shape, snake_case subscription), `usage_get_only` takes the usage only as a GET,
 * `unlimited` / `non_numeric` change the usage; `mint_refused`, `mint_expired` and
 * `first_client_refused` change WorkOS's answers.
 */
export const factoryUpstream: SimulatedUpstream = {
  id: "factory",
  origins: ["https://auth.factory.ai", "https://api.factory.ai", "https://app.factory.ai", "https://api.workos.com"],
  env: {},
  // 12 days before the billing period of usage.json ends
  recordedAt: "2026-03-20T12:00:00Z",
  scenarios: [
    "ok",
    "unlimited",
    "non_numeric",
    "user_profile",
    "usage_get_only",
    "signed_out",
    "bearer_expired",
    "stale_token",
    "mint_refused",
    "mint_expired",
    "first_client_refused",
    "slow",
    "upstream_500",
  ],
  routes: [
    {
      method: "GET",
      path: "/api/app/auth/me",
      handle(request, scenario) {
        const denied = refused(request, scenario);
        if (denied) return denied;
        if (scenario === "stale_token" && request.headers.cookie && request.headers.authorization) return json("stale-token.json", 409);
        return json(scenario === "user_profile" ? "auth-me-profile.json" : "auth-me.json");
      },
    },
    {
      method: "POST",
      path: "/api/organization/subscription/usage",
      handle(request, scenario) {
        if (scenario === "usage_get_only") return { status: 405, json: { error: "Method Not Allowed" } };
        return usage(request, scenario, (JSON.parse(request.body || "{}") as { useCache?: unknown }).useCache);
      },
    },
    {
      method: "GET",
      path: "/api/organization/subscription/usage",
      handle: (request, scenario) => usage(request, scenario, request.query.get("useCache")),
    },
    { method: "POST", path: "/user_management/authenticate", handle: authenticate },
  ],
  // the demo's Factory session: a stored bearer and refresh token, as a sign-in leaves them
  async seedHome(home) {
    const dir = join(home, ".config", "quotabar");
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, SESSION_FILE_NAME);
    await writeFile(file, JSON.stringify({ bearerToken: FACTORY_SIM.bearer, refreshToken: FACTORY_SIM.refreshToken }, null, 2), {
      mode: 0o600,
    });
    await chmod(file, 0o600);
  },
};
