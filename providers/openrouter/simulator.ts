import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { bearer } from "../../simulator/auth.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

export const OPENROUTER_TEST_KEY = "sk-or-v1-simulator-0123456789abcdef";

const unauthorized: SimReply = {
  status: 401,
  body: fixture("unauthorized.json"),
  headers: { "content-type": "application/json" },
};

function authorized(request: SimRequest, scenario: string): boolean {
  return scenario !== "unauthorized" && bearer(request) === OPENROUTER_TEST_KEY;
}

/** OpenRouter: GET /api/v1/credits and /api/v1/key with `Authorization: Bearer sk-or-v1-...`. */
export const openrouterUpstream: SimulatedUpstream = {
  id: "openrouter",
  origins: ["https://openrouter.ai"],
  env: { OPENROUTER_API_KEY: OPENROUTER_TEST_KEY },
  scenarios: ["ok", "no_key_limit", "key_unavailable", "empty", "near_limit", "unauthorized", "malformed", "slow", "upstream_500"],
  routes: [
    {
      method: "GET",
      path: "/api/v1/credits",
      handle(request, scenario) {
        if (!authorized(request, scenario)) return unauthorized;
        if (scenario === "malformed") return { body: fixture("credits-malformed.json") };
        if (scenario === "empty") return { body: fixture("credits-empty.json") };
        if (scenario === "near_limit") return { json: { data: { total_credits: 20, total_usage: 18.9 } } };
        return { body: fixture("credits.json") };
      },
    },
    {
      method: "GET",
      path: "/api/v1/key",
      handle(request, scenario) {
        if (!authorized(request, scenario)) return unauthorized;
        if (scenario === "key_unavailable") return { status: 500, body: "upstream error" };
        if (scenario === "no_key_limit" || scenario === "empty") return { body: fixture("key-no-limit.json") };
        return { body: fixture("key-with-limit.json") };
      },
    },
  ],
};
