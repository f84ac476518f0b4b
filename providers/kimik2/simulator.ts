import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { bearer } from "../../simulator/auth.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

export const KIMIK2_TEST_KEY = "kk2-simulator-0123456789abcdef";

const json = (body: string, headers: Record<string, string> = {}): SimReply => ({
  body,
  headers: { "content-type": "application/json", ...headers },
});

function answer(request: SimRequest, scenario: string): SimReply {
  if (scenario === "unauthorized" || bearer(request) !== KIMIK2_TEST_KEY) {
    return { status: 401, ...json(fixture("unauthorized.json")) };
  }
  if (request.headers.accept !== "application/json") return { status: 406, ...json('{"error":"send Accept: application/json"}') };
  if (scenario === "header_remaining") return json(fixture("header-remaining.json"), { "X-Credits-Remaining": "160" });
  if (scenario === "empty") return json(fixture("fresh-account.json"));
  if (scenario === "malformed") return json(fixture("malformed.json"));
  if (scenario === "error_200") return json(fixture("error-invalid-key.json"));
  // a relay that echoes the key it refuses
  if (scenario === "error_200_echo") return { json: { error: `Invalid API key ${bearer(request)}` } };
  if (scenario === "error_200_upstream") return json(fixture("error-unavailable.json"));
  if (scenario === "empty_object") return json(fixture("empty-object.json"));
  if (scenario === "no_credit_fields") return json(fixture("no-credit-fields.json"));
  if (scenario === "not_json") return { body: "<html><body>Bad gateway</body></html>", headers: { "content-type": "text/html" } };
  return json(fixture("nested-data.json"), { "X-Credits-Remaining": "8750" });
}

/** Kimi K2 (unofficial relay): GET /api/user/credits with `Authorization: Bearer <key>`. */
export const kimik2Upstream: SimulatedUpstream = {
  id: "kimik2",
  origins: ["https://kimi-k2.ai"],
  env: { KIMI_K2_API_KEY: KIMIK2_TEST_KEY },
  // after every updated_at of the fixtures (09:15, and 10:53:20 in header-remaining.json)
  recordedAt: "2026-03-10T11:00:00Z",
  scenarios: [
    "ok",
    "header_remaining",
    "empty",
    "unauthorized",
    "error_200",
    "error_200_echo",
    "error_200_upstream",
    "empty_object",
    "no_credit_fields",
    "malformed",
    "not_json",
    "slow",
    "upstream_500",
  ],
  routes: [{ method: "GET", path: "/api/user/credits", handle: answer }],
};
