import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { bearer } from "../../simulator/auth.js";
import { fixtureReplies } from "../../simulator/fixtures.js";

/** A Coding Plan API key (sk-cp-...). */
export const MINIMAX_TEST_KEY = "sk-cp-simulator-0123456789abcdef";
/** The web session cookie the platform sets. */
export const MINIMAX_TEST_COOKIE = "HERTZ-SESSION=minimax-sim-session-0123456789";
/** The web app's access token (what a pasted cURL command carries as Authorization: Bearer). */
export const MINIMAX_WEB_TEST_TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJHcm91cElEIjoiMTkwMDAwMDAwMDAwIn0.bWluaW1heC1zaW0tc2lnbmF0dXJl";

/**
 * When the fixtures of the older windows (November 2023) were recorded: each window's end less its
 * `remains_time`, as for the upstream's `recordedAt`.
 */
const RECORDED_AT: Record<string, string> = {
  "remains-ok.json": "2023-11-15T03:09:20Z",
  "remains-wrapped.json": "2023-11-15T00:44:19Z",
  "coding-plan-next-data.html": "2023-11-15T01:13:20Z",
  // the window's end less its remains_time, here in seconds (9000 s)
  "remains-remaining-count.json": "2026-06-01T04:30:00Z",
};
const { json, html } = fixtureReplies(import.meta.url, RECORDED_AT);

const hasSessionCookie = (request: SimRequest) =>
  String(request.headers.cookie ?? "")
    .split(/;\s*/)
    .includes(MINIMAX_TEST_COOKIE);

/** What the API host answers an accepted token with, by scenario; today's shape by default. */
const API_FIXTURES: Record<string, string> = {
  wrapped: "remains-wrapped.json",
  remaining_count: "remains-remaining-count.json",
  percent_only: "remains-percent-only.json",
  status_1004: "remains-1004.json",
  invalid_key_message: "remains-invalid-key.json",
  api_error: "remains-api-error.json",
  empty: "remains-empty.json",
  no_usage: "remains-no-usage.json",
  malformed: "remains-malformed.json",
};
const NOT_FOUND: SimReply = { status: 404, json: { error: "404 page not found" } };

/** An API token's answer: 401 for a wrong token, else the scenario's fixture. */
function apiAnswer(request: SimRequest, scenario: string, fixtureName: string): SimReply {
  if (scenario === "unauthorized" || bearer(request) !== MINIMAX_TEST_KEY) return json("remains-unauthorized.json", 401);
  return json(fixtureName);
}

/** Today's path; deployments of the older scenarios lack it. */
function tokenPlanRemains(request: SimRequest, scenario: string): SimReply {
  if (["coding_plan_path", "legacy_path", "api_not_found"].includes(scenario)) return NOT_FOUND;
  return apiAnswer(request, scenario, API_FIXTURES[scenario] ?? "remains-token-plan.json");
}

/** The earlier path: on the API host for tokens, on the platform host for web sessions (told apart by the cookie). */
function remains(request: SimRequest, scenario: string): SimReply {
  if (request.headers.cookie !== undefined) {
    // The well-known case: a cookie alone gets status 1004, the remains API wants a Bearer token.
    if (scenario === "web_signed_out" || !hasSessionCookie(request) || bearer(request) !== MINIMAX_WEB_TEST_TOKEN) {
      return json("remains-1004.json");
    }
    return json("remains-wrapped.json");
  }
  if (scenario === "legacy_path" || scenario === "api_not_found") return NOT_FOUND;
  return apiAnswer(request, scenario, "remains-ok.json");
}

/** The documented path: only a deployment that lacks the others (scenario legacy_path) serves it. */
function documentedRemains(request: SimRequest, scenario: string): SimReply {
  return scenario === "legacy_path" ? apiAnswer(request, scenario, "remains-ok.json") : NOT_FOUND;
}

function codingPlanPage(request: SimRequest, scenario: string): SimReply {
  if (!hasSessionCookie(request) || scenario === "web_signed_out") return html("sign-in.html");
  if (scenario === "web_page") return html("coding-plan-next-data.html");
  if (scenario === "web_text") return html("coding-plan-text.html");
  if (scenario === "web_signed_in") return html("coding-plan-signed-in.html");
  return html("coding-plan-shell.html");
}

/** MiniMax: the remains paths on the Global and China API hosts, the coding-plan page and remains API on the platform hosts. */
export const minimaxUpstream: SimulatedUpstream = {
  id: "minimax",
  origins: ["https://api.minimax.io", "https://api.minimaxi.com", "https://platform.minimax.io", "https://platform.minimaxi.com"],
  env: { MINIMAX_API_KEY: MINIMAX_TEST_KEY },
  // the end of each window of remains-token-plan.json less its remains_time (all agree)
  recordedAt: "2026-06-01T02:22:20Z",
  routes: [
    { method: "GET", path: "/v1/token_plan/remains", handle: tokenPlanRemains },
    { method: "GET", path: "/v1/api/openplatform/coding_plan/remains", handle: remains },
    { method: "GET", path: "/v1/coding_plan/remains", handle: documentedRemains },
    { method: "GET", path: "/user-center/payment/coding-plan", handle: codingPlanPage },
  ],
  scenarios: [
    "ok",
    "wrapped",
    "remaining_count",
    "percent_only",
    "coding_plan_path",
    "legacy_path",
    "api_not_found",
    "status_1004",
    "invalid_key_message",
    "api_error",
    "empty",
    "no_usage",
    "unauthorized",
    "malformed",
    "web_page",
    "web_text",
    "web_signed_in",
    "web_signed_out",
    "slow",
    "upstream_500",
  ],
};
