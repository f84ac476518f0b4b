import type { SimReply, SimulatedUpstream } from "../ports/simulated-upstream.js";
import { fixturesOf } from "./fixtures.js";

const fixture = fixturesOf(import.meta.url);

const STATUSPAGE_SCENARIOS = ["operational", "incident", "maintenance", "legacy", "malformed", "slow", "upstream_500"] as const;

/**
 * A Statuspage v2 page: `summary.json` per scenario, and `status.json` (indicator only) for pages
 * that predate summaries. `legacy` plays such a page: summary.json is a 404.
 */
function statuspageSim(id: string, origin: string, page: "githubstatus" | "factory"): SimulatedUpstream {
  const summary = (scenario: string): SimReply => {
    if (scenario === "legacy") return { status: 404, json: { error: "Not found" } };
    if (scenario === "malformed") return { body: fixture("status/statuspage-malformed.json") };
    const name = scenario === "incident" || scenario === "maintenance" ? scenario : "operational";
    return { body: fixture(`status/${page}-summary-${name}.json`), headers: { "content-type": "application/json; charset=utf-8" } };
  };
  return {
    id,
    origins: [origin],
    env: {},
    scenarios: STATUSPAGE_SCENARIOS,
    routes: [
      { method: "GET", path: "/api/v2/summary.json", handle: (_request, scenario) => summary(scenario) },
      {
        method: "GET",
        path: "/api/v2/status.json",
        handle: (_request, scenario) =>
          scenario === "malformed"
            ? { body: fixture("status/statuspage-malformed.json") }
            : { body: fixture("status/githubstatus-status.json") },
      },
    ],
  };
}

/** GitHub's Statuspage (the Copilot status). */
export const githubStatusSim = statuspageSim("status-github", "https://www.githubstatus.com", "githubstatus");

/** Factory's Statuspage. */
export const factoryStatusSim = statuspageSim("status-factory", "https://status.factory.ai", "factory");

/** The Google Workspace incidents feed (the Antigravity status, product npdyhgECDJ6tB66MxXyo). */
export const googleStatusSim: SimulatedUpstream = {
  id: "status-google",
  origins: ["https://www.google.com"],
  env: {},
  scenarios: ["operational", "incident", "maintenance", "malformed", "slow", "upstream_500"],
  routes: [
    {
      method: "GET",
      path: "/appsstatus/dashboard/incidents.json",
      handle(_request, scenario) {
        const name = ["incident", "maintenance", "malformed"].includes(scenario) ? scenario : "operational";
        return { body: fixture(`status/google-incidents-${name}.json`), headers: { "content-type": "application/json; charset=utf-8" } };
      },
    },
  ],
};

/** Status pages, played like any other upstream (their ids are not provider ids). */
export const STATUS_PAGE_UPSTREAMS: readonly SimulatedUpstream[] = [githubStatusSim, factoryStatusSim, googleStatusSim];
