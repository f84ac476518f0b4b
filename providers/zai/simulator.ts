import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { bearer } from "../../simulator/auth.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

export const ZAI_TEST_KEY = "zai-simulator.0123456789abcdef";

function answer(request: SimRequest, scenario: string): SimReply {
  // z.ai reports a bad or missing token as an API error inside HTTP 200.
  if (scenario === "unauthorized" || bearer(request) !== ZAI_TEST_KEY) return { body: fixture("api-error.json") };
  if (scenario === "malformed") return { body: fixture("malformed.json") };
  if (scenario === "empty") return { body: "" };
  if (scenario === "sparse") return { body: fixture("sparse.json") };
  if (scenario === "no_limits") return { body: fixture("no-limits.json") };
  if (scenario === "time_only") return { body: fixture("time-only.json") };
  return { body: fixture("tokens-and-mcp.json") };
}

/** z.ai: GET /api/monitor/usage/quota/limit on the Global host or the China (BigModel) host. */
export const zaiUpstream: SimulatedUpstream = {
  id: "zai",
  origins: ["https://api.z.ai", "https://open.bigmodel.cn"],
  env: { Z_AI_API_KEY: ZAI_TEST_KEY },
  scenarios: ["ok", "sparse", "no_limits", "time_only", "empty", "unauthorized", "malformed", "slow", "upstream_500"],
  routes: [{ method: "GET", path: "/api/monitor/usage/quota/limit", handle: answer }],
};
