import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FileTextStore } from "../../adapters/cache/file-text-store.js";
import { JsonConfigStore } from "../../adapters/config/json-config-store.js";
import { GotHttpTransport } from "../../adapters/http/got-http-transport.js";
import { parseOriginMap } from "../../adapters/http/origin-map.js";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { composeCore } from "../../library/compose-core.js";
import { createNodeCore } from "../../library/node-core.js";
import { writeCliRemedies } from "../../library/remedy-text.js";
import type { StatusReader } from "../../ports/status-feed.js";
import { useSimulator } from "../helpers/harness.js";

const sim = useSimulator();
const START = new Date("2026-11-20T10:00:00.000Z");
const MINUTE = 60_000;

/** A library container against the simulator with a clock the test moves. */
function setup(extraEnv: Record<string, string | undefined> = {}) {
  const clock = { current: START, now: () => clock.current };
  const core = createNodeCore({ env: sim.env(extraEnv), clock });
  return {
    clock,
    status: core.status,
    usage: core.usage,
    advance(minutes: number) {
      clock.current = new Date(clock.current.getTime() + minutes * MINUTE);
    },
  };
}

const statusRequests = () => sim.sim.requests.filter((r) => r.providerId.startsWith("status-"));
const asked = () => statusRequests().map((r) => `${r.origin}${r.path}`);
/** Polls, not requests: a Statuspage poll starts with the incident.io feed, the Google one is one request. */
const polls = () => statusRequests().filter((r) => r.path.startsWith("/proxy/") || r.path.endsWith("/incidents.json")).length;

function writeConfig(config: unknown): void {
  mkdirSync(join(sim.home, ".config", "quotabar"), { recursive: true });
  writeFileSync(join(sim.home, ".config", "quotabar", "config.json"), JSON.stringify(config));
}

afterEach(() => rmSync(join(sim.home, ".config"), { recursive: true, force: true }));

describe("StatusService against the simulator", () => {
  it("tries GitHub's incident.io feed, then reads summary.json and components.json: Copilot's component decides", async () => {
    sim.sim.setScenario("status-github", "incident");
    const { status } = setup();
    const copilot = await status.statusFor("copilot");
    expect(copilot).toMatchObject({
      indicator: "minor",
      description: "Copilot: Degraded performance",
      url: "https://www.githubstatus.com",
    });
    expect(copilot?.incidents[0]).toMatchObject({ name: "Disruption with some GitHub services", url: "https://stspg.io/7f3kq2p9xw4b" });
    expect(asked()[0]).toBe("https://www.githubstatus.com/proxy/www.githubstatus.com");
    expect(asked().slice(1).sort()).toEqual([
      "https://www.githubstatus.com/api/v2/components.json",
      "https://www.githubstatus.com/api/v2/summary.json",
    ]);
  });

  it("keeps Copilot operational while another GitHub component is down", async () => {
    sim.sim.setScenario("status-github", "other_component");
    const { status } = setup();
    expect(await status.statusFor("copilot")).toEqual({
      indicator: "none",
      description: "Operational",
      url: "https://www.githubstatus.com",
      incidents: [],
    });
  });

  it("reads summary.json's components when components.json fails, without an error", async () => {
    sim.sim.setScenario("status-github", "components_500");
    const { status } = setup();
    expect(await status.report("copilot")).toMatchObject({ status: { indicator: "none", description: "Operational" }, error: null });
    expect(statusRequests().map((r) => r.path)).toContain("/api/v2/components.json");
  });

  it("polls Factory's Statuspage (no components.json: the whole page speaks for Factory) and the Google feed", async () => {
    sim.sim.setScenario("status-factory", "incident");
    sim.sim.setScenario("status-google", "incident");
    const { status } = setup();
    expect(await status.statusFor("factory")).toMatchObject({ indicator: "major", description: "Partial System Outage" });
    expect((await status.statusFor("antigravity"))?.indicator).toBe("major");
    expect(asked()).toEqual([
      "https://status.factory.ai/proxy/status.factory.ai",
      "https://status.factory.ai/api/v2/summary.json",
      "https://www.google.com/appsstatus/dashboard/incidents.json",
    ]);
  });

  it("reads a page moved to incident.io from its proxy feed, with status.json's words", async () => {
    sim.sim.setScenario("status-factory", "incidentio_incident");
    const { status } = setup();
    const factory = await status.statusFor("factory");
    expect(factory).toMatchObject({ indicator: "major", description: "Partial System Outage", url: "https://status.factory.ai" });
    expect(factory?.incidents.map((i) => [i.name, i.impact, i.url])).toEqual([
      ["Elevated error rates for Droid sessions", "major", "https://status.factory.ai/incidents/01JE2M7R4T9W3Y6A1C5E8G0J2L"],
      ["Usage dashboard shows delayed numbers", "minor", "https://status.factory.ai/incidents/01JE2K3P8S1V6X9Z2B4D7F0H3K"],
    ]);
    expect(asked()).toEqual(["https://status.factory.ai/proxy/status.factory.ai", "https://status.factory.ai/api/v2/status.json"]);
  });

  it("judges Copilot by its group on an incident.io page, without asking status.json", async () => {
    sim.sim.setScenario("status-github", "incidentio_incident");
    const { status } = setup();
    expect(await status.statusFor("copilot")).toMatchObject({
      indicator: "minor",
      description: "Copilot Chat: Degraded performance",
      incidents: [{ name: "Copilot Chat responses are slow" }],
    });
    expect(statusRequests().map((r) => r.path)).toEqual(["/proxy/www.githubstatus.com"]);
  });

  it("reads the page as a Statuspage when the incident.io feed answers something else", async () => {
    sim.sim.setScenario("status-factory", "incidentio_malformed");
    const { status } = setup();
    expect(await status.report("factory")).toMatchObject({
      status: { indicator: "none", description: "All Systems Operational" },
      error: null,
    });
    expect(statusRequests().map((r) => r.path)).toEqual(["/proxy/status.factory.ai", "/api/v2/summary.json"]);
  });

  it("falls back to status.json when a page has no summary.json", async () => {
    sim.sim.setScenario("status-github", "legacy");
    const { status } = setup();
    expect(await status.statusFor("copilot")).toMatchObject({
      indicator: "minor",
      description: "Partially Degraded Service",
      incidents: [],
    });
    const paths = statusRequests().map((r) => r.path);
    expect(paths[0]).toBe("/proxy/www.githubstatus.com");
    expect(paths.slice(1).sort()).toEqual(["/api/v2/components.json", "/api/v2/status.json", "/api/v2/summary.json"]);
  });

  it("never polls link-only providers or providers without a status page", async () => {
    const { status } = setup();
    for (const id of ["kiro", "openrouter", "vertexai", "zai", "nonsense"]) expect(await status.statusFor(id)).toBeNull();
    const kiro = await status.report("kiro");
    expect(kiro).toMatchObject({ kind: "link", url: "https://health.aws.amazon.com/health/status", status: null });
    expect(await status.report("warp")).toMatchObject({ kind: "none", url: null, status: null });
    expect(statusRequests()).toHaveLength(0);
  });

  it("asks once per interval: a second call (even from a new instance) is served from the disk cache", async () => {
    const first = setup();
    expect((await first.status.report("copilot")).cached).toBe(false);
    expect(polls()).toBe(1);
    const perPoll = statusRequests().length; // the incident.io feed, summary.json, components.json

    const second = setup(); // a second CLI run: new container, same cache dir
    second.advance(4);
    const report = await second.status.report("copilot");
    expect(report).toMatchObject({ cached: true, checkedAt: START.toISOString(), status: { indicator: "none" } });
    expect(statusRequests()).toHaveLength(perPoll);

    second.advance(1); // 5 minutes after the first poll
    expect((await second.status.report("copilot")).cached).toBe(false);
    expect(polls()).toBe(2);
    expect(statusRequests()).toHaveLength(2 * perPoll);
    const files = readdirSync(join(sim.home, ".cache", "quotabar", "status"));
    expect(files).toEqual(["copilot.json"]);
  });

  it("honours config status.intervalMinutes", async () => {
    writeConfig({ providers: [], status: { intervalMinutes: 1 } });
    const { status, advance } = setup();
    expect(await status.settings()).toEqual({ enabled: true, intervalMinutes: 1 });
    await status.statusFor("copilot");
    advance(0.5);
    await status.statusFor("copilot");
    expect(polls()).toBe(1);
    advance(0.5);
    await status.statusFor("copilot");
    expect(polls()).toBe(2);
  });

  it("shares one request between concurrent callers", async () => {
    const { status } = setup();
    const answers = await Promise.all([status.statusFor("copilot"), status.statusFor("copilot"), status.report("copilot")]);
    expect(answers[0]).toEqual(answers[1]);
    expect(polls()).toBe(1);
    expect(statusRequests().filter((r) => r.path === "/api/v2/summary.json")).toHaveLength(1);
  });

  it("makes no status request at all when status checks are off", async () => {
    writeConfig({ providers: [{ id: "zai", enabled: true }], status: { enabled: false } });
    const { status, usage } = setup();
    expect(await status.settings()).toEqual({ enabled: false, intervalMinutes: 5 });
    expect(await status.statusFor("copilot")).toBeNull();
    expect(await status.report("antigravity")).toMatchObject({ kind: "google-workspace", status: null, checkedAt: null });
    const doc = await usage.usage({ providers: ["copilot", "factory", "antigravity", "zai"], status: true });
    expect(doc.providers.map((p) => p.status)).toEqual([null, null, null, null]);
    expect(statusRequests()).toHaveLength(0);
  });

  it("keeps the previous status when a poll fails, and says why", async () => {
    sim.sim.setScenario("status-github", "incident");
    const { status, advance } = setup();
    const good = await status.report("copilot");
    sim.sim.setScenario("status-github", "upstream_500");
    advance(6);
    const failed = await status.report("copilot");
    expect(failed.status).toEqual(good.status);
    expect(failed.fetchedAt).toBe(START.toISOString());
    expect(failed.checkedAt).toBe(new Date(START.getTime() + 6 * MINUTE).toISOString());
    expect(failed.error).toMatchObject({ code: "upstream", message: "www.githubstatus.com API error: HTTP 500" });

    // the failure is remembered for the interval too: no hammering of a broken page
    const before = statusRequests().length;
    advance(1);
    expect((await status.report("copilot")).status).toEqual(good.status);
    expect(statusRequests()).toHaveLength(before);

    sim.sim.setScenario("status-github", "operational");
    advance(5);
    expect(await status.report("copilot")).toMatchObject({ status: { indicator: "none" }, error: null });
  });

  it("has no status, but an error, when the very first poll fails (malformed or 500)", async () => {
    sim.sim.setScenario("status-google", "malformed");
    sim.sim.setScenario("status-factory", "upstream_500");
    const { status } = setup();
    const google = await status.report("antigravity");
    expect(google.status).toBeNull();
    expect(google.error?.code).toBe("parse");
    expect(google.error?.message).toContain("[0].begin");
    expect(await status.statusFor("factory")).toBeNull();
  });

  it("leaves the status unset (never 'unknown') when neither the incident.io feed nor the Statuspage answers", async () => {
    sim.sim.setScenario("status-github", "upstream_500");
    const { status } = setup();
    const report = await status.report("copilot");
    expect(report.status).toBeNull();
    expect(report.error).toMatchObject({ code: "upstream", message: "www.githubstatus.com API error: HTTP 500" });
    expect(statusRequests().map((r) => r.path)).toContain("/proxy/www.githubstatus.com");
  });

  it("does not reuse a status cached through another origin map (simulator vs real pages)", async () => {
    sim.sim.setScenario("status-github", "incident");
    const { status } = setup();
    await status.statusFor("copilot");
    const file = join(sim.home, ".cache", "quotabar", "status", "copilot.json");
    const entry = JSON.parse(readFileSync(file, "utf8")) as { target: string };
    expect(entry.target).toBe(`${sim.sim.url}/www.githubstatus.com/`);
    writeFileSync(file, JSON.stringify({ ...entry, target: "https://www.githubstatus.com/" }));
    await status.statusFor("copilot");
    expect(polls()).toBe(2);
    writeFileSync(file, "{ not json");
    await status.statusFor("copilot");
    expect(polls()).toBe(3);
  });
});

describe("status in the usage document", () => {
  it("adds status only when asked, and null for link-only providers", async () => {
    sim.sim.setScenario("status-github", "incident");
    const { usage } = setup();
    const plain = await usage.usage({ providers: ["copilot", "openrouter"] });
    expect(plain.providers.map((p) => p.status)).toEqual([null, null]);
    expect(statusRequests()).toHaveLength(0);
    const withStatus = await usage.usage({ providers: ["copilot", "openrouter"], status: true });
    expect(withStatus.providers[0]?.status?.incidents[0]?.name).toBe("Disruption with some GitHub services");
    expect(withStatus.providers[1]?.status).toBeNull();
    expect(withStatus.providers[1]?.ok).toBe(true);
  });

  it("gives a slow status page no more than the provider's time budget, and remembers nothing", async () => {
    sim.sim.setScenario("status-github", "slow");
    const { usage } = setup();
    const started = Date.now();
    const doc = await usage.usage({ providers: ["openrouter", "copilot"], status: true, timeoutMs: 1_000 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(doc.providers[0]?.ok).toBe(true);
    expect(doc.providers[1]?.status).toBeNull();
    expect(statusRequests()).toHaveLength(1);
    expect(existsSync(join(sim.home, ".cache", "quotabar", "status", "copilot.json"))).toBe(false);
  });

  it("never lets a failing status page fail the usage fetch", async () => {
    sim.sim.setScenario("status-github", "upstream_500");
    const { usage } = setup();
    const doc = await usage.usage({ providers: ["openrouter", "copilot"], status: true });
    expect(doc.providers[0]?.ok).toBe(true);
    expect(doc.providers[1]?.status).toBeNull();

    const env = sim.env();
    const originMap = parseOriginMap(env.QUOTABAR_ORIGIN_MAP);
    const throwing: StatusReader = { statusFor: () => Promise.reject(new Error("status exploded")) };
    const core = composeCore({
      env,
      clock: { now: () => new Date() },
      config: new JsonConfigStore(join(sim.home, "config.json")),
      store: new FileTextStore(join(sim.home, ".cache", "quotabar")),
      transport: new GotHttpTransport(originMap),
      processes: new NodeProcessRunner(),
      originMap,
      writeRemedies: writeCliRemedies,
      status: throwing,
    });
    const zai = await core.usage.usage({ providers: ["zai"], status: true });
    expect(zai.providers[0]).toMatchObject({ ok: true, status: null, error: null });
  });
});
