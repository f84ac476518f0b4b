import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { fixturesOf } from "../../simulator/fixtures.js";
import { SERVER_FUNCTIONS } from "./server-fn.js";

const fixture = fixturesOf(import.meta.url);

export const OPENCODE_TEST_SESSION = "Fe26.2**oc-sim-session-0123456789abcdef";
/** A whole pasted header: only its `__Host-auth` cookie may reach opencode.ai. */
export const OPENCODE_TEST_COOKIE = `_ga=GA1.1.918273645; __Host-auth=${OPENCODE_TEST_SESSION}`;
export const OPENCODE_WORKSPACES = { listedFirst: "wrk_01K6AR1ZET89H8NB691FQ2C2VB", team: "wrk_01K7B0Q4XYZ123ABC456DEF789" };

const js = (name: string): SimReply => ({ body: fixture(name), headers: { "content-type": "text/javascript" } });
const json = (name: string, status = 200): SimReply => ({ status, body: fixture(name), headers: { "content-type": "application/json" } });
/** What opencode.ai answers a POST for a workspace without a subscription. */
const serverError = json("error-500.json", 500);

/** The function and its arguments, as the GET (query) or the POST (body) carries them; null when they disagree with X-Server-Id. */
function invocation(request: SimRequest): { id: string; args: unknown[] } | null {
  const id = String(request.headers["x-server-id"] ?? "");
  if (!/^server-fn:[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}$/.test(String(request.headers["x-server-instance"] ?? ""))) return null;
  if (request.method === "GET") {
    if (request.query.get("id") !== id) return null;
    const args = request.query.get("args");
    return { id, args: args === null ? [] : (JSON.parse(args) as unknown[]) };
  }
  if (request.query.has("id") || !String(request.headers["content-type"]).startsWith("application/json")) return null;
  return { id, args: JSON.parse(request.body || "null") as unknown[] };
}

const signedIn = (request: SimRequest) => request.headers.cookie === `__Host-auth=${OPENCODE_TEST_SESSION}`;

function workspaces(request: SimRequest, scenario: string): SimReply {
  if (scenario === "json") return json("workspaces.json");
  // the first workspace is gone: the account lists only the team one
  if (scenario === "workspace_moved") return js("workspaces-moved.seroval");
  // the GET answers an empty listing in these deployments; the POST has the workspaces (or none)
  if (scenario === "no_workspace" || (scenario === "get_unusable" && request.method === "GET")) return js("workspaces-empty.seroval");
  return js("workspaces.seroval");
}

function subscription(request: SimRequest, scenario: string, workspace: unknown): SimReply {
  if (workspace === OPENCODE_WORKSPACES.team) return js("subscription-team.seroval");
  if (workspace !== OPENCODE_WORKSPACES.listedFirst || scenario === "no_subscription" || scenario === "workspace_moved") {
    return request.method === "GET" ? js("subscription-null.seroval") : serverError;
  }
  if (scenario === "json") return json("subscription.json");
  if (scenario === "go") return js("subscription-go.seroval");
  if (scenario === "pay_as_you_go" || scenario === "overspent") return js("subscription-null.seroval");
  if (scenario === "malformed" || (scenario === "get_unusable" && request.method === "GET")) return js("subscription-no-usage.seroval");
  if (scenario === "server_error" && request.method === "GET") return js("subscription-no-usage.seroval");
  if (scenario === "server_error") return serverError;
  return js("subscription.seroval");
}

/** The billing each scenario answers for the listed workspace; the team one and a gone one have none (a serialized null). */
const BILLING: Record<string, string> = {
  pay_as_you_go: "billing-limit.seroval",
  overspent: "billing-overspent.seroval",
  no_subscription: "subscription-null.seroval",
};

function billing(scenario: string, workspace: unknown): SimReply {
  if (workspace !== OPENCODE_WORKSPACES.listedFirst || scenario === "workspace_moved") return js("subscription-null.seroval");
  if (scenario === "json") return json("billing.json");
  if (scenario === "billing_error") return serverError;
  return js(BILLING[scenario] ?? "billing.seroval");
}

function serverFunction(request: SimRequest, scenario: string): SimReply {
  const call = invocation(request);
  if (call === null || !String(request.headers.accept).startsWith("text/javascript"))
    return { status: 400, body: "Bad server function call" };
  if (scenario === "expired") return { status: 401, body: "Unauthorized" };
  // a session it does not know: opencode.ai serializes an error for the "public" actor
  if (scenario === "signed_out" || !signedIn(request)) return js("signed-out.seroval");
  if (scenario === "login_page") return { status: 302, headers: { location: "auth/authorize?redirect=%2F_server" } };
  if (call.id === SERVER_FUNCTIONS.workspaces) return workspaces(request, scenario);
  if (call.id === SERVER_FUNCTIONS.subscription) return subscription(request, scenario, call.args[0]);
  if (call.id === SERVER_FUNCTIONS.billing) return billing(scenario, call.args[0]);
  return serverError;
}

const SCENARIOS = [
  ...[
    "ok",
    "go",
    "pay_as_you_go",
    "overspent",
    "billing_error",
    "json",
    "get_unusable",
    "no_subscription",
    "no_workspace",
    "workspace_moved",
  ],
  ...["signed_out", "login_page", "expired", "malformed", "server_error", "slow", "upstream_500"],
];

/** OpenCode: the dashboard's `_server` functions (workspace list, subscription, billing) and its sign-in page. */
export const opencodeUpstream: SimulatedUpstream = {
  id: "opencode",
  origins: ["https://opencode.ai"],
  env: { OPENCODE_COOKIE: OPENCODE_TEST_COOKIE },
  scenarios: SCENARIOS,
  routes: [
    { method: "GET", path: "/_server", handle: serverFunction },
    { method: "POST", path: "/_server", handle: serverFunction },
    { method: "GET", path: "/auth/authorize", handle: () => ({ body: fixture("sign-in.html"), headers: { "content-type": "text/html" } }) },
  ],
};
