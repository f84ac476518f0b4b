import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { renderCostText } from "../../oclif-cli/commands/cost.js";
import { style } from "../../oclif-cli/render/style.js";
import { vertexCost } from "../../providers/vertexai/cost.js";
import { recentSession } from "../../providers/vertexai/simulator.js";
import { runCli } from "../helpers/cli.js";
import { tempHome } from "../helpers/harness.js";

// local days: pinned for the in-process tests (the CLI runs get the same zone through their env)
const zone = process.env.TZ;
process.env.TZ = "America/New_York";
afterAll(() => {
  process.env.TZ = zone;
});

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
  it("prints each day with its models, each model, and the total; unpriced models and missing logs said plainly", async () => {
    const now = new Date("2026-03-20T16:00:00Z");
    const cost = await vertexCost({ env: { HOME: homeWithLogs(now, 2) }, now, since: "2026-03-19" });
    expect(renderCostText(cost, style(false))).toBe(
      [
        "Vertex AI cost from Claude Code logs, 2026-03-19 to 2026-03-20 (local days, list prices as of 2026-03-01)",
        "",
        "DATE        MODEL              REQUESTS  INPUT  OUTPUT  CACHE WRITE  CACHE READ   COST",
        "2026-03-19  all models                2    912     431        2,048      15,360  $0.02",
        "            claude-sonnet-4-5         1     12     311        2,048      15,360  $0.02",
        "            claude-opus-4-5           1    900     120            0           0  $0.01",
        "2026-03-20  all models                2    912     431        2,048      15,360  $0.02",
        "            claude-sonnet-4-5         1     12     311        2,048      15,360  $0.02",
        "            claude-opus-4-5           1    900     120            0           0  $0.01",
        "",
        "BY MODEL           REQUESTS  INPUT  OUTPUT  CACHE WRITE  CACHE READ   COST",
        "claude-sonnet-4-5         2     24     622        4,096      30,720  $0.03",
        "claude-opus-4-5           2  1,800     240            0           0  $0.02",
        "TOTAL                     4  1,824     862        4,096      30,720  $0.05",
      ].join("\n"),
    );
    const nothing = await vertexCost({ env: { HOME: "/nonexistent-home" }, now });
    expect(renderCostText(nothing, style(false))).toBe(
      "No Vertex AI cost data found in Claude logs (looked in /nonexistent-home/.config/claude/projects, /nonexistent-home/.claude/projects). Ensure entries include Vertex metadata.",
    );
  });
});

describe("quotabar cost (the built CLI)", () => {
  it("prints the document with --json: days, models, total, the prices' date and where it looked", async () => {
    const dir = homeWithLogs(new Date(), 10);
    const run = await runCli(["cost", "--json"], { HOME: dir, TZ: "America/New_York" });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const doc = JSON.parse(run.stdout);
    expect(doc).toMatchObject({ version: 1, currency: "USD", pricesAsOf: "2026-03-01", found: true, complete: true, unpricedModels: [] });
    expect(doc.total).toMatchObject({ requests: 20, totalTokens: 187_510 });
    expect(doc.total.costUsd).toBeCloseTo(0.24489, 6);
    expect(doc.models.map((m: { model: string }) => m.model)).toEqual(["claude-sonnet-4-5", "claude-opus-4-5"]);
    expect(doc.logRoots).toEqual([join(dir, ".config", "claude", "projects"), join(dir, ".claude", "projects")]);
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
});
