import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { bearer } from "../../simulator/auth.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

export const ZAI_TEST_KEY = "zai-simulator.0123456789abcdef";

/** The body each scenario serves; `ok` is today's Coding Plan answer. */
const FIXTURES: Record<string, string> = {
  // a 5-hour and a weekly tokens window, the MCP bucket, the plan as `level`
  ok: "coding-plan.json",
  // the older answer: one tokens window and the MCP bucket, the plan as `planName`
  one_window: "tokens-and-mcp.json",
  credits: "credit-plan.json",
  sparse: "sparse.json",
  no_limits: "no-limits.json",
  time_only: "time-only.json",
  malformed: "malformed.json",
};

/**
 * When the fixtures that were not recorded with `coding-plan.json` were: each 5-hour window then
 * had 3 hours to go.
 */
const RECORDED_AT: Record<string, string> = {
  "credit-plan.json": "2026-11-20T14:00:00Z",
  "sparse.json": "2026-03-14T12:00:00Z",
};

function answer(request: SimRequest, scenario: string): SimReply {
  // z.ai reports a bad or missing token as an API error inside HTTP 200.
  if (scenario === "unauthorized" || bearer(request) !== ZAI_TEST_KEY) return { body: fixture("api-error.json") };
  if (scenario === "empty") return { body: "" };
  const name = FIXTURES[scenario] ?? "coding-plan.json";
  const recordedAt = RECORDED_AT[name];
  return { body: fixture(name), ...(recordedAt ? { recordedAt } : {}) };
}

/** z.ai: GET /api/monitor/usage/quota/limit on the Global host or the China (BigModel) host. */
export const zaiUpstream: SimulatedUpstream = {
  id: "zai",
  origins: ["https://api.z.ai", "https://open.bigmodel.cn"],
  env: { Z_AI_API_KEY: ZAI_TEST_KEY },
  // 3 hours before the 5-hour window of coding-plan.json (and tokens-and-mcp.json) resets, days before the weekly and monthly ones
  recordedAt: "2026-11-24T09:00:00Z",
  scenarios: [...Object.keys(FIXTURES), "empty", "unauthorized", "slow", "upstream_500"],
  routes: [{ method: "GET", path: "/api/monitor/usage/quota/limit", handle: answer }],
};
