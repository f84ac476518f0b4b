import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { UsageDocument } from "../../domain/usage-document.js";
import type { StatusDocument } from "../../oclif-cli/commands/status.js";
import { useSimulator } from "../helpers/harness.js";

const sim = useSimulator();
const BIN = join(import.meta.dirname, "..", "..", "bin", "run.cjs");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI as a child process (async: the simulator answers from this process). */
function quotabar(args: string[]): Promise<Run> {
  const env = { ...sim.env(), PATH: process.env.PATH, NO_COLOR: "1" } as NodeJS.ProcessEnv;
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const statusRequests = () => sim.sim.requests.filter((r) => r.providerId.startsWith("status-"));
/** Polls, not requests: a Statuspage poll starts with the incident.io feed, the Google one is one request. */
const polls = () => statusRequests().filter((r) => r.path.startsWith("/proxy/") || r.path.endsWith("/incidents.json")).length;

afterEach(() => rmSync(join(sim.home, ".config"), { recursive: true, force: true }));

describe("quotabar status", () => {
  it("lists the Statuspage incident, the Google feed, and the link-only pages", async () => {
    sim.sim.setScenario("status-github", "incident");
    const run = await quotabar(["status"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("GitHub Copilot [incident: minor]");
    expect(run.stdout).toContain("● Copilot: Degraded performance");
    expect(run.stdout).toContain("! Disruption with some GitHub services (minor, updated");
    expect(run.stdout).toContain("https://stspg.io/7f3kq2p9xw4b");
    expect(run.stdout).toContain("Status page: https://www.githubstatus.com · checked just now");
    expect(run.stdout).toMatch(/Antigravity\n {2}✓ Operational/);
    // Gemini CLI reads the same Google feed: one request serves both
    expect(run.stdout).toMatch(/Gemini CLI\n {2}✓ Operational/);
    expect(run.stdout).toContain("Status page: https://health.aws.amazon.com/health/status (link only, not polled)");
    expect(run.stdout).not.toContain("z.ai");
    expect([...new Set(statusRequests().map((r) => r.providerId))].sort()).toEqual([
      "status-claude",
      "status-cursor",
      "status-factory",
      "status-github",
      "status-google",
      "status-openai",
    ]);
    expect(polls()).toBe(6);
  });

  it("answers a burst of runs from the cache: one request per page", async () => {
    await quotabar(["status", "-p", "copilot"]);
    const second = await quotabar(["status", "-p", "copilot", "--json"]);
    const doc = JSON.parse(second.stdout) as StatusDocument;
    expect(doc.providers[0]).toMatchObject({ id: "copilot", cached: true });
    expect(polls()).toBe(1);
  });

  it("prints the status document with --json", async () => {
    sim.sim.setScenario("status-factory", "incident");
    const run = await quotabar(["status", "-p", "factory", "-p", "kiro", "-p", "zai", "--json"]);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as StatusDocument;
    expect(doc).toMatchObject({ version: 1, enabled: true, intervalMinutes: 5 });
    expect(doc.providers.map((p) => [p.id, p.kind])).toEqual([
      ["factory", "statuspage"],
      ["kiro", "link"],
      ["zai", "none"],
    ]);
    expect(doc.providers[0]?.status?.incidents.map((i) => i.name)).toEqual([
      "Elevated error rates for Droid sessions",
      "Usage dashboard shows delayed numbers",
    ]);
  });

  it("reads a page that moved to incident.io, and keeps Copilot clear of another component's outage", async () => {
    sim.sim.setScenario("status-factory", "incidentio_incident");
    sim.sim.setScenario("status-github", "other_component");
    const run = await quotabar(["status", "-p", "factory", "-p", "copilot"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Factory (Droid) [incident: major]");
    expect(run.stdout).toContain("! Elevated error rates for Droid sessions (major, updated");
    expect(run.stdout).toContain("https://status.factory.ai/incidents/01JE2M7R4T9W3Y6A1C5E8G0J2L");
    expect(run.stdout).toMatch(/GitHub Copilot\n {2}✓ Operational/);
    expect(run.stdout).not.toContain("Incident with Actions");
  });

  it("exits 1 with the reason when a page cannot be read", async () => {
    sim.sim.setScenario("status-github", "upstream_500");
    const run = await quotabar(["status", "-p", "copilot"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("✖ upstream: www.githubstatus.com API error: HTTP 500");
  });

  it("asks nothing when status checks are off", async () => {
    mkdirSync(join(sim.home, ".config", "quotabar"), { recursive: true });
    writeFileSync(join(sim.home, ".config", "quotabar", "config.json"), JSON.stringify({ providers: [], status: { enabled: false } }));
    const run = await quotabar(["status"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Status checks are off");
    const json = JSON.parse((await quotabar(["status", "--json"])).stdout) as StatusDocument;
    expect(json.enabled).toBe(false);
    expect(json.providers.every((p) => p.status === null)).toBe(true);
    expect(statusRequests()).toHaveLength(0);
  });

  it("rejects an unknown provider id with exit 2", async () => {
    const run = await quotabar(["status", "-p", "nope"]);
    expect(run.code).toBe(2);
  });
});

describe("quotabar --status", () => {
  it("adds the Statuspage incident to the provider in the JSON document", async () => {
    sim.sim.setScenario("status-github", "incident");
    const run = await quotabar(["-p", "copilot", "--status", "--json"]);
    const doc = JSON.parse(run.stdout) as UsageDocument;
    expect(doc.providers[0]?.status).toEqual({
      indicator: "minor",
      description: "Copilot: Degraded performance",
      url: "https://www.githubstatus.com",
      incidents: [
        {
          name: "Disruption with some GitHub services",
          impact: "minor",
          url: "https://stspg.io/7f3kq2p9xw4b",
          updatedAt: "2026-11-20T09:52:17.798Z",
        },
      ],
    });
  });

  it("shows the badge and the incident in the text view", async () => {
    sim.sim.setScenario("status-google", "incident");
    const run = await quotabar(["-p", "antigravity", "--status"]);
    expect(run.stdout).toContain("Antigravity [incident: major]");
    expect(run.stdout).toContain("! Gemini users are seeing elevated error rates (major)");
  });

  it("keeps the usage exit code when the status page fails", async () => {
    const without = await quotabar(["-p", "openrouter", "-p", "copilot", "--json"]);
    sim.sim.setScenario("status-github", "upstream_500");
    const failing = await quotabar(["-p", "openrouter", "-p", "copilot", "--status", "--json"]);
    expect(failing.code).toBe(without.code);
    const doc = JSON.parse(failing.stdout) as UsageDocument;
    expect(doc.providers.map((p) => p.status)).toEqual([null, null]);
    expect(statusRequests().length).toBeGreaterThan(0);

    const ok = await quotabar(["-p", "openrouter", "--status"]);
    expect(ok.code).toBe(0);
  });

  it("makes no status request without --status", async () => {
    await quotabar(["-p", "openrouter", "-p", "copilot", "--json"]);
    expect(statusRequests()).toHaveLength(0);
  });
});
