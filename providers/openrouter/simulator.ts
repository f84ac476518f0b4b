import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { bearer } from "../../simulator/auth.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

export const OPENROUTER_TEST_KEY = "sk-or-v1-simulator-0123456789abcdef";
export const OPENROUTER_TEST_MANAGEMENT_KEY = "sk-or-v1-simulator-management-fedcba9876543210";
/** A second account's key (the demo's `team` account): its own credits, never the first key's. */
export const OPENROUTER_TEAM_TEST_KEY = "sk-or-v1-simulator-team-a1b2c3d4e5f60718";
const TEAM_CREDITS = { data: { total_credits: 250, total_usage: 187.5 } };

const unauthorized: SimReply = {
  status: 401,
  body: fixture("unauthorized.json"),
  headers: { "content-type": "application/json" },
};

function authorized(request: SimRequest, scenario: string, keys = [OPENROUTER_TEST_KEY, OPENROUTER_TEAM_TEST_KEY]): boolean {
  return scenario !== "unauthorized" && keys.includes(bearer(request) ?? "");
}

const isTeam = (request: SimRequest) => bearer(request) === OPENROUTER_TEAM_TEST_KEY;

/** `/key` as each scenario has it: today's shape by default, v0.18's for the `legacy_*` scenarios. */
const KEY_FIXTURES: Record<string, string> = {
  window_usage: "key-window-usage.json",
  no_key_limit: "key-unlimited.json",
  empty: "key-unlimited.json",
  legacy_key: "key-with-limit.json",
  legacy_no_key_limit: "key-no-limit.json",
  negative_key_limit: "key-negative-limit.json",
};

const CREDITS_FIXTURES: Record<string, string> = {
  malformed: "credits-malformed.json",
  empty: "credits-empty.json",
  negative_usage: "credits-negative.json",
};

/**
 * OpenRouter: GET /api/v1/credits and /api/v1/key with `Authorization: Bearer sk-or-v1-...`, and
 * GET /api/v1/activity with the management key.
 */
export const openrouterUpstream: SimulatedUpstream = {
  id: "openrouter",
  origins: ["https://openrouter.ai"],
  env: { OPENROUTER_API_KEY: OPENROUTER_TEST_KEY, OPENROUTER_MANAGEMENT_API_KEY: OPENROUTER_TEST_MANAGEMENT_KEY },
  accounts: () => [{ id: "openrouter", account: "team", apiKey: OPENROUTER_TEAM_TEST_KEY }],
  // the day after the last day of activity.json (/activity covers completed days only)
  recordedAt: "2026-03-05T12:00:00Z",
  scenarios: [
    "ok",
    "window_usage",
    "no_key_limit",
    "legacy_key",
    "legacy_no_key_limit",
    "key_unavailable",
    "negative_key_limit",
    "activity_unavailable",
    "empty",
    "near_limit",
    "negative_usage",
    "unauthorized",
    "malformed",
    "slow",
    "upstream_500",
  ],
  routes: [
    {
      method: "GET",
      path: "/api/v1/credits",
      handle(request, scenario) {
        if (!authorized(request, scenario)) return unauthorized;
        if (isTeam(request)) return { json: TEAM_CREDITS };
        if (scenario === "near_limit") return { json: { data: { total_credits: 20, total_usage: 18.9 } } };
        return { body: fixture(CREDITS_FIXTURES[scenario] ?? "credits.json") };
      },
    },
    {
      method: "GET",
      path: "/api/v1/key",
      handle(request, scenario) {
        if (!authorized(request, scenario)) return unauthorized;
        if (scenario === "key_unavailable") return { status: 500, body: "upstream error" };
        return { body: fixture(KEY_FIXTURES[scenario] ?? "key.json") };
      },
    },
    {
      method: "GET",
      path: "/api/v1/activity",
      handle(request, scenario) {
        // an inference key is not a management key: OpenRouter answers 403
        if (bearer(request) === OPENROUTER_TEST_KEY || scenario === "activity_unavailable") {
          return { status: 403, body: fixture("management-forbidden.json"), headers: { "content-type": "application/json" } };
        }
        if (!authorized(request, scenario, [OPENROUTER_TEST_MANAGEMENT_KEY])) return unauthorized;
        return { body: fixture("activity.json") };
      },
    },
  ],
};
