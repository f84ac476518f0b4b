import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { fixturesOf } from "../../simulator/fixtures.js";
import { cookieValue } from "../kit/index.js";
import { SESSION_NAMES } from "./cookies.js";

const fixture = fixturesOf(import.meta.url);
const jwt = (claims: object) => `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.c2ltdWxhdG9yLXNpZ25lZA`;
const SUBJECT = "auth0|user_01J8X2ABCDEF";
const USER_ID = "user_01J8X2ABCDEF";

/** The credentials the simulated cursor.com takes (tests put them where each source looks). */
export const CURSOR_SIM = {
  /** The Cursor app's `cursorAuth/accessToken` (valid until 2100). */
  appToken: jwt({ sub: SUBJECT, email: "dev@company.example", exp: 4_102_444_800 }),
  /** One whose `exp` has passed. */
  expiredAppToken: jwt({ sub: SUBJECT, exp: 1_700_000_000 }),
  userId: USER_ID,
  subject: SUBJECT,
  /** The dashboard's session cookie value a browser keeps (`<userId>%3A%3A<jwt>`). */
  get session(): string {
    return `${USER_ID}%3A%3A${this.appToken}`;
  },
};
/** A signed-in browser's whole header, as CURSOR_COOKIE carries it. */
export const CURSOR_TEST_COOKIE = `WorkosCursorSessionToken=${CURSOR_SIM.session}; NEXT_LOCALE=en`;

const json = (name: string, recordedAt?: string): SimReply => ({
  body: fixture(name),
  headers: { "content-type": "application/json" },
  ...(recordedAt ? { recordedAt } : {}),
});

/** Any session cookie name with the known value (the dashboard's WorkOS one, or an older name). */
function signedIn(request: SimRequest): boolean {
  const header = String(request.headers.cookie ?? "");
  return SESSION_NAMES.some((name) => cookieValue(header, name) === CURSOR_SIM.session);
}

/** Each account scenario: its usage summary, and the moment its times describe (mid-cycle). */
const SUMMARIES: Record<string, [string, string]> = {
  ok: ["usage-summary-pro.json", "2026-04-02T12:00:00Z"],
  free: ["usage-summary-free.json", "2026-02-27T12:00:00Z"],
  ultra: ["usage-summary-ultra.json", "2026-08-21T12:00:00Z"],
  enterprise: ["usage-summary-enterprise.json", "2026-04-20T12:00:00Z"],
  request_plan: ["usage-summary-team-requests.json", "2026-07-13T12:00:00Z"],
  enterprise_on_demand: ["usage-summary-team-requests.json", "2026-07-13T12:00:00Z"],
  negative_count: ["usage-summary-negative.json", "2026-04-02T12:00:00Z"],
};

function refused(request: SimRequest, scenario: string): SimReply | null {
  if (scenario === "signed_out") return { status: 401, json: { error: "Unauthorized" } };
  if (scenario === "forbidden") return { status: 403, json: { error: "Forbidden" } };
  return signedIn(request) ? null : { status: 401, json: { error: "Unauthorized" } };
}

function summary(request: SimRequest, scenario: string): SimReply {
  if (request.headers.accept !== "application/json") return { status: 406, body: "Not Acceptable" };
  const denied = refused(request, scenario);
  if (denied) return denied;
  if (scenario === "malformed") return { body: fixture("not-json.html"), headers: { "content-type": "text/html" } };
  const [name, recordedAt] = SUMMARIES[scenario] ?? (SUMMARIES.ok as [string, string]);
  return json(name, recordedAt);
}

/** `/api/usage?user=`: the allowance of a request-based plan, keyed by the user (the full subject or its id). */
function requestUsage(request: SimRequest, scenario: string): SimReply {
  const denied = refused(request, scenario);
  if (denied) return denied;
  if (![SUBJECT, USER_ID].includes(request.query.get("user") ?? "")) return { status: 400, json: { error: "Unknown user" } };
  return json(scenario === "request_plan" ? "usage-requests.json" : "usage-token-plan.json");
}

/**
 * cursor.com's dashboard API. Scenarios: `ok` (Pro, fractional percents), `free`, `ultra` (plan used
 * up, on-demand spend), `enterprise` (a personal cap and the team pool, no plan block),
 * `request_plan` (a request allowance), `enterprise_on_demand` (the same account without the
 * allowance, its on-demand budgets; `/api/auth/me` fails), `signed_out` (401), `forbidden` (403), `malformed`
 * (an HTML page), `negative_count`.
 */
export const cursorUpstream: SimulatedUpstream = {
  id: "cursor",
  origins: ["https://cursor.com"],
  env: { CURSOR_COOKIE: CURSOR_TEST_COOKIE },
  recordedAt: "2026-04-02T12:00:00Z",
  scenarios: [
    ...Object.keys(SUMMARIES).filter((s) => s !== "negative_count"),
    "signed_out",
    "forbidden",
    "malformed",
    "negative_count",
    "slow",
    "upstream_500",
  ],
  routes: [
    { method: "GET", path: "/api/usage-summary", handle: summary },
    {
      method: "GET",
      path: "/api/auth/me",
      handle: (request, scenario) =>
        refused(request, scenario) ??
        (scenario === "enterprise_on_demand" ? { status: 500, body: "Internal Server Error" } : json("auth-me.json")),
    },
    { method: "GET", path: "/api/usage", handle: requestUsage },
  ],
};
