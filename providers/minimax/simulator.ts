import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { bearer } from "../../simulator/auth.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

/** A Coding Plan API key (sk-cp-...). */
export const MINIMAX_TEST_KEY = "sk-cp-simulator-0123456789abcdef";
/** The web session cookie the platform sets. */
export const MINIMAX_TEST_COOKIE = "HERTZ-SESSION=minimax-sim-session-0123456789";
/** The web app's access token (what a pasted cURL command carries as Authorization: Bearer). */
export const MINIMAX_WEB_TEST_TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJHcm91cElEIjoiMTkwMDAwMDAwMDAwIn0.bWluaW1heC1zaW0tc2lnbmF0dXJl";

const json = (name: string, status = 200): SimReply => ({ status, body: fixture(name), headers: { "content-type": "application/json" } });
const html = (name: string): SimReply => ({ body: fixture(name), headers: { "content-type": "text/html; charset=utf-8" } });

const hasSessionCookie = (request: SimRequest) =>
  String(request.headers.cookie ?? "")
    .split(/;\s*/)
    .includes(MINIMAX_TEST_COOKIE);

const API_FIXTURES: Record<string, string> = {
  wrapped: "remains-wrapped.json",
  percent_only: "remains-percent-only.json",
  status_1004: "remains-1004.json",
  invalid_key_message: "remains-invalid-key.json",
  api_error: "remains-api-error.json",
  empty: "remains-empty.json",
  malformed: "remains-malformed.json",
};

/** The API host answers API tokens; the platform host answers web sessions (told apart by the cookie). */
function remains(request: SimRequest, scenario: string): SimReply {
  if (request.headers.cookie !== undefined) {
    // The well-known case: a cookie alone gets status 1004, the remains API wants a Bearer token.
    if (!hasSessionCookie(request) || bearer(request) !== MINIMAX_WEB_TEST_TOKEN) return json("remains-1004.json");
    return json("remains-wrapped.json");
  }
  if (scenario === "legacy_path" || scenario === "api_not_found") return { status: 404, json: { error: "404 page not found" } };
  if (scenario === "unauthorized" || bearer(request) !== MINIMAX_TEST_KEY) return json("remains-unauthorized.json", 401);
  return json(API_FIXTURES[scenario] ?? "remains-ok.json");
}

/** The documented path: only a deployment that lacks the real path (scenario legacy_path) serves it. */
function documentedRemains(request: SimRequest, scenario: string): SimReply {
  if (scenario !== "legacy_path") return { status: 404, json: { error: "404 page not found" } };
  if (bearer(request) !== MINIMAX_TEST_KEY) return json("remains-unauthorized.json", 401);
  return json("remains-ok.json");
}

function codingPlanPage(request: SimRequest, scenario: string): SimReply {
  if (!hasSessionCookie(request) || scenario === "web_signed_out") return html("sign-in.html");
  if (scenario === "web_page") return html("coding-plan-next-data.html");
  if (scenario === "web_text") return html("coding-plan-text.html");
  return html("coding-plan-shell.html");
}

/** MiniMax: remains API on the Global and China API hosts, coding-plan page and remains API on the platform hosts. */
export const minimaxUpstream: SimulatedUpstream = {
  id: "minimax",
  origins: ["https://api.minimax.io", "https://api.minimaxi.com", "https://platform.minimax.io", "https://platform.minimaxi.com"],
  env: { MINIMAX_API_KEY: MINIMAX_TEST_KEY },
  routes: [
    { method: "GET", path: "/v1/api/openplatform/coding_plan/remains", handle: remains },
    { method: "GET", path: "/v1/coding_plan/remains", handle: documentedRemains },
    { method: "GET", path: "/user-center/payment/coding-plan", handle: codingPlanPage },
  ],
  scenarios: [
    "ok",
    "wrapped",
    "percent_only",
    "legacy_path",
    "api_not_found",
    "status_1004",
    "invalid_key_message",
    "api_error",
    "empty",
    "unauthorized",
    "malformed",
    "web_page",
    "web_text",
    "web_signed_out",
    "slow",
    "upstream_500",
  ],
};
