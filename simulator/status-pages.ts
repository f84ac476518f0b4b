import type { SimReply, SimulatedUpstream } from "../ports/simulated-upstream.js";
import { fixturesOf } from "./fixtures.js";

const fixture = fixturesOf(import.meta.url);

/**
 * What a Statuspage-style page plays. The classic scenarios (`operational`, `incident`,
 * `maintenance`, and for GitHub `other_component`: Actions down, Copilot fine) answer the
 * incident.io feed with a 404, as an Atlassian page does, and serve summary.json (and GitHub
 * its components.json). `incidentio` / `incidentio_incident` play the page moved to incident.io:
 * the proxy feed answers (and status.json, for the description). `incidentio_malformed` answers
 * the feed with HTML, so the page is read as a Statuspage. `components_500` (GitHub) breaks
 * components.json only; `legacy` is a page without summary.json or components.json (status.json
 * only).
 */
const MORE_SCENARIOS = ["legacy", "incidentio", "incidentio_incident", "incidentio_malformed", "malformed", "slow", "upstream_500"];

const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };
const NOT_FOUND: SimReply = { status: 404, body: "<!doctype html><title>Page not found</title>", headers: { "content-type": "text/html" } };

interface PageFixtures {
  page: "githubstatus" | "factory" | "claude" | "cursor" | "openai";
  /** Classic scenarios with a summary (and components) fixture of their own; the first is the default. */
  summaries: readonly string[];
  /** It has components.json fixtures (the pages whose provider names its components). */
  components: boolean;
  /** It has status.json fixtures for the incident.io scenarios (else the legacy status.json serves). */
  incidentIoStatus: boolean;
}

function statuspageSim(id: string, origin: string, pages: PageFixtures): SimulatedUpstream {
  const { page } = pages;
  const host = new URL(origin).host;
  const classic = (scenario: string) => (pages.summaries.includes(scenario) ? scenario : "operational").replaceAll("_", "-");
  const incidentIo = (scenario: string) => (scenario === "incidentio_incident" ? "incident" : "operational");
  const json = (name: string): SimReply => ({ body: fixture(`status/${name}`), headers: JSON_TYPE });

  const proxy = (scenario: string): SimReply => {
    if (scenario === "incidentio" || scenario === "incidentio_incident") return json(`${page}-incidentio-${incidentIo(scenario)}.json`);
    if (scenario === "incidentio_malformed")
      return { body: "<!doctype html><html><head><title>Status</title></head><body><div id=root></div></body></html>" };
    return NOT_FOUND;
  };
  const summary = (scenario: string): SimReply => {
    if (scenario === "legacy") return { status: 404, json: { error: "Not found" } };
    if (scenario === "malformed") return { body: fixture("status/statuspage-malformed.json") };
    return json(`${page}-summary-${classic(scenario)}.json`);
  };
  const components = (scenario: string): SimReply => {
    if (!pages.components || scenario === "legacy") return NOT_FOUND;
    if (scenario === "components_500") return { status: 500, body: "Internal Server Error" };
    if (scenario === "malformed") return { body: fixture("status/statuspage-malformed.json") };
    return json(`${page}-components-${classic(scenario)}.json`);
  };
  const status = (scenario: string): SimReply => {
    if (scenario === "malformed") return { body: fixture("status/statuspage-malformed.json") };
    if (pages.incidentIoStatus && scenario.startsWith("incidentio")) return json(`${page}-status-${incidentIo(scenario)}.json`);
    return json("githubstatus-status.json");
  };
  return {
    id,
    origins: [origin],
    env: {},
    scenarios: [...pages.summaries, ...(pages.components ? ["components_500"] : []), ...MORE_SCENARIOS],
    routes: [
      { method: "GET", path: `/proxy/${host}`, handle: (_request, scenario) => proxy(scenario) },
      { method: "GET", path: "/api/v2/summary.json", handle: (_request, scenario) => summary(scenario) },
      { method: "GET", path: "/api/v2/components.json", handle: (_request, scenario) => components(scenario) },
      { method: "GET", path: "/api/v2/status.json", handle: (_request, scenario) => status(scenario) },
    ],
  };
}

/** GitHub's Statuspage (the Copilot status: its Copilot component). */
export const githubStatusSim = statuspageSim("status-github", "https://www.githubstatus.com", {
  page: "githubstatus",
  summaries: ["operational", "incident", "maintenance", "other_component"],
  components: true,
  incidentIoStatus: false,
});

/** Factory's Statuspage. */
export const factoryStatusSim = statuspageSim("status-factory", "https://status.factory.ai", {
  page: "factory",
  summaries: ["operational", "incident", "maintenance"],
  components: false,
  incidentIoStatus: true,
});

/** Claude's Statuspage (status.claude.com). */
export const claudeStatusSim = statuspageSim("status-claude", "https://status.claude.com", {
  page: "claude",
  summaries: ["operational", "incident"],
  components: false,
  incidentIoStatus: false,
});

/** Cursor's Statuspage. */
export const cursorStatusSim = statuspageSim("status-cursor", "https://status.cursor.com", {
  page: "cursor",
  summaries: ["operational", "incident", "maintenance"],
  components: false,
  incidentIoStatus: false,
});

/** OpenAI's status page (the Codex status: its Codex group), an incident.io page: its feed answers by default. */
const openaiPage = statuspageSim("status-openai", "https://status.openai.com", {
  page: "openai",
  summaries: ["operational"],
  components: false,
  incidentIoStatus: true,
});
export const openaiStatusSim: SimulatedUpstream = {
  ...openaiPage,
  scenarios: ["incidentio", ...openaiPage.scenarios.filter((name) => name !== "incidentio")],
};

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
        return { body: fixture(`status/google-incidents-${name}.json`), headers: JSON_TYPE };
      },
    },
  ],
};

/** Status pages, played like any other upstream (their ids are not provider ids). */
export const STATUS_PAGE_UPSTREAMS: readonly SimulatedUpstream[] = [
  githubStatusSim,
  factoryStatusSim,
  googleStatusSim,
  claudeStatusSim,
  cursorStatusSim,
  openaiStatusSim,
];
