import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { renderCostText } from "../../oclif-cli/commands/cost.js";
import { style } from "../../oclif-cli/render/style.js";
import { logCost } from "../../providers/kit/cost/cost.js";
import { ProviderSimulator } from "../../simulator/server.js";
import { priceListSim } from "../../simulator/price-list.js";
import { recentSession } from "../../providers/vertexai/simulator.js";
import { runCli } from "../helpers/cli.js";
import { pinTimeZone, tempHome } from "../helpers/harness.js";

// local days: pinned for the in-process tests (the CLI runs get the same zone through their env)
pinTimeZone("America/New_York");

const homes: string[] = [];
afterEach(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A home whose Claude Code logs hold the reference session once a day for `days` days up to `now`. */
function homeWithLogs(now: Date, days: number): string {
  const dir = tempHome();
  homes.push(dir);
  mkdirSync(join(dir, ".claude", "projects", "-Users-dev-acme"), { recursive: true });
  writeFileSync(join(dir, ".claude", "projects", "-Users-dev-acme", "session.jsonl"), recentSession(now, days));
  return dir;
}

describe("quotabar cost: the text view", () => {
  it("a row per day and the total; each model (agent, backend) under its day with --breakdown; no logs said plainly", async () => {
    const now = new Date("2026-03-20T16:00:00Z");
    const cost = await logCost({ env: { HOME: homeWithLogs(now, 2) }, now, since: "2026-03-19" });
    const title = "Claude Code and Codex cost at API prices, 2026-03-19 to 2026-03-20 (local days, prices as of 2026-09-22)";
    expect(renderCostText(cost, style(false))).toBe(
      [
        title,
        "",
        "DATE        INPUT  OUTPUT  CACHE WRITE  CACHE READ  TOTAL TOKENS   COST",
        "2026-03-19    962     441        2,048      15,360        18,811  $0.02",
        "2026-03-20    962     441        2,048      15,360        18,811  $0.02",
        "TOTAL       1,924     882        4,096      30,720        37,622  $0.05",
      ].join("\n"),
    );
    expect(renderCostText(cost, style(false), { breakdown: true }).split("\n").slice(2, 7)).toEqual([
      "DATE                                    INPUT  OUTPUT  CACHE WRITE  CACHE READ  TOTAL TOKENS   COST",
      "2026-03-19                                962     441        2,048      15,360        18,811  $0.02",
      "  claude-sonnet-4-5 (claude, vertexai)     12     311        2,048      15,360        17,731  $0.02",
      "  claude-opus-4-5 (claude, vertexai)      900     120            0           0         1,020  $0.01",
      "  claude-opus-4-5 (claude, anthropic)      50      10            0           0            60  $0.00",
    ]);
    const nothing = await logCost({ env: { HOME: "/nonexistent-home" }, now, agents: ["codex"] });
    expect(renderCostText(nothing, style(false))).toBe(
      "No Codex requests found in the logs (looked in /nonexistent-home/.codex/sessions, /nonexistent-home/.codex/archived_sessions).",
    );
  });
});

describe("quotabar cost (the built CLI)", () => {
  it("prints the document with --json: days, models with agent and backend, total, the prices' date and where it looked", async () => {
    const dir = homeWithLogs(new Date(), 10);
    const run = await runCli(["cost", "--json"], { HOME: dir, TZ: "America/New_York" });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const doc = JSON.parse(run.stdout);
    expect(doc).toMatchObject({
      version: 1,
      currency: "USD",
      pricesAsOf: "2026-09-22",
      agents: ["claude", "codex"],
      found: true,
      complete: true,
      unpricedModels: [],
      unreadableFiles: 0,
      skippedLines: 0,
    });
    expect(doc.total).toMatchObject({ requests: 30, totalTokens: 188_110 });
    expect(doc.models.map((m: { model: string; agent: string; backend: string }) => `${m.model} ${m.agent} ${m.backend}`)).toEqual([
      "claude-sonnet-4-5 claude vertexai",
      "claude-opus-4-5 claude vertexai",
      "claude-opus-4-5 claude anthropic",
    ]);
    expect(doc.logRoots).toEqual([
      join(dir, ".config", "claude", "projects"),
      join(dir, ".claude", "projects"),
      join(dir, ".codex", "sessions"),
      join(dir, ".codex", "archived_sessions"),
    ]);
  });

  it("--agent codex --by month reads Codex's sessions only", async () => {
    const dir = tempHome();
    homes.push(dir);
    cpSync(join(import.meta.dirname, "..", "..", "providers", "kit", "cost", "fixtures", "oracle", "home"), dir, { recursive: true });
    const run = await runCli(["cost", "--json", "--agent", "codex", "--since", "2026-03-01", "--until", "2026-03-31", "--by", "month"], {
      HOME: dir,
      TZ: "America/New_York",
    });
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.days.map((d: { date: string }) => d.date)).toEqual(["2026-03"]);
    expect(doc.total.costUsd).toBeCloseTo(13.93791415, 2); // ccusage 20.0.24 on the same logs (fixtures/oracle)
    expect(doc.unpricedModels).toMatchObject([{ model: "codex-mini-latest", agent: "codex", costUsd: null }]);
  });

  it("counts from --since, and refuses a date that is not one (exit 2)", async () => {
    const dir = homeWithLogs(new Date(), 10);
    const today = await runCli(
      ["cost", "--no-color", "--since", new Date().toLocaleDateString("sv-SE", { timeZone: "America/New_York" })],
      {
        HOME: dir,
        TZ: "America/New_York",
      },
    );
    expect(today.code).toBe(0);
    // today only (its lines were written minutes ago; just after midnight they may still be yesterday's)
    expect(today.stdout).toMatch(/(\d{4}-\d\d-\d\d) to \1\b/);
    const bad = await runCli(["cost", "--since", "2026-02-30"], { HOME: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since must be a date as YYYY-MM-DD, not "2026-02-30".');
  });

  it("--update-prices: LiteLLM's list through the origin map, kept when whole; a partial or non-JSON answer keeps the prices and says why", async () => {
    const dir = homeWithLogs(new Date(), 1);
    const sim = await ProviderSimulator.start({ providers: [priceListSim] });
    try {
      const env = { HOME: dir, TZ: "America/New_York", ...sim.env() };
      sim.setScenario("price-list", "partial");
      const partial = await runCli(["cost", "--json", "--update-prices"], env);
      expect(partial.code).toBe(0);
      expect(partial.stderr).toMatch(/Prices not updated: the answer lacks \d+ of the \d+ models priced here/);
      expect(JSON.parse(partial.stdout).pricesAsOf).toBe("2026-09-22");
      sim.setScenario("price-list", "not_json");
      expect((await runCli(["cost", "--update-prices"], env)).stderr).toContain("Prices not updated: the answer is not a JSON object.");
      sim.setScenario("price-list", "default");
      const updated = await runCli(["cost", "--json", "--update-prices"], env);
      expect(updated.stderr).toMatch(/^Prices updated from LiteLLM's list, as of \d{4}-\d\d-\d\d/);
      const doc = JSON.parse(updated.stdout);
      expect(doc.pricesAsOf).toBe(new Date().toISOString().slice(0, 10));
      expect(doc.total.costUsd).toBeGreaterThan(0);
      // kept: a later run without the flag uses it, offline
      expect(JSON.parse((await runCli(["cost", "--json"], { HOME: dir, TZ: "America/New_York" })).stdout).pricesAsOf).toBe(doc.pricesAsOf);
      expect(sim.requests.map((r) => r.path)).toEqual(Array(3).fill("/BerriAI/litellm/main/model_prices_and_context_window.json"));
    } finally {
      await sim.stop();
    }
  });
});
