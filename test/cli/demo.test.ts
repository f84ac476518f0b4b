import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliResult } from "../helpers/cli.js";
import { tempHome } from "../helpers/harness.js";

const home = tempHome();
const env = { HOME: home, NO_COLOR: "1" };
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("quotabar demo --scenario", () => {
  it("without a name, lists that provider's scenarios in one short line, exit 2", async () => {
    const run = await runCli(["demo", "--scenario", "warp"], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Error: --scenario warp names no scenario");
    expect(run.stderr).toMatch(/warp scenarios: ok, unlimited, .*unauthorized/);
    // only warp's: no other provider's scenario names, not every provider's in a 3 KB line
    expect(run.stderr).not.toContain("copilot");
    expect(run.stderr.length).toBeLessThan(400);
  });

  it("with an unknown name, the same list", async () => {
    const run = await runCli(["demo", "--scenario", "warp=nope"], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('warp has no scenario "nope"');
    expect(run.stderr).toMatch(/warp scenarios: ok, unlimited, /);
  });
});

describe("quotabar demo, the text a person reads", () => {
  let demo: CliResult;
  beforeAll(async () => {
    demo = await runCli(["demo"], env);
  });

  it("runs", () => {
    expect(demo.code, demo.stderr).toBe(0);
  });

  it("writes a meter's amounts and its detail the same way (z.ai 23.5M in both)", () => {
    expect(demo.stdout).toMatch(/Tokens [ █░]*[\d.]+% {2}23\.5M \/ 80M tokens/);
    expect(demo.stdout).toContain("Tokens: 23.5M / 80M (56.5M remaining)");
    // JetBrains AI's refill note as its meter writes the limit (the file's 300000 units are 3 credits)
    expect(demo.stdout).toMatch(/\/ 3 credits/);
    expect(demo.stdout).toContain("Refills 3 credits");
  });

  it("groups thousands in every count and amount", () => {
    const ungrouped = demo.stdout.match(/(?<![\d.,])\d{4,}(?:\.\d+)? ?(?:requests|credits|tokens|calls|\/)/g);
    expect(ungrouped).toBeNull();
    expect(demo.stdout).toContain("2,048 requests/week");
    expect(demo.stdout).toContain("8,750 credits");
  });

  it("writes percentages one way and never repeats a plan's tier ('Team - Team')", () => {
    expect(demo.stdout).not.toMatch(/\d %/);
    for (const header of demo.stdout.split("\n").filter((line) => line.includes(" · ") && !line.startsWith(" "))) {
      const plan = header.slice(header.indexOf(" · ") + 3);
      const words = plan.split(/[\s-]+/).filter(Boolean);
      expect(new Set(words).size, header).toBe(words.length);
    }
  });
});

describe("quotabar demo, two accounts of one provider", () => {
  it("shows the OpenRouter team account beside the default one, each with its own numbers", async () => {
    const run = await runCli(["demo", "--json", "-p", "openrouter"], env);
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as { providers: { id: string; account: string | null; ok: boolean; primary: { used: number } }[] };
    expect(doc.providers.map(({ id, account, ok }) => [id, account, ok])).toEqual([
      ["openrouter", null, true],
      ["openrouter", "team", true],
    ]);
    expect(doc.providers[1]?.primary.used).not.toBe(doc.providers[0]?.primary.used);
    const text = await runCli(["demo", "-p", "openrouter:team"], env);
    expect(text.stdout).toMatch(/^OpenRouter · team$/m);
    expect(text.stdout).not.toMatch(/^OpenRouter$/m);
  });
});

describe("quotabar demo, the routes that need no configuration", () => {
  it("reads Amp with the Amp CLI's key and Kiro from its log, both written in the demo's own home, not the user's", async () => {
    const run = await runCli(["demo", "--json", "-p", "amp", "-p", "kiro"], env);
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as { providers: { id: string; ok: boolean; source: string | null }[] };
    expect(doc.providers.map(({ id, ok, source }) => ({ id, ok, source }))).toEqual([
      { id: "amp", ok: true, source: "cli" },
      { id: "kiro", ok: true, source: "local" },
    ]);
    for (const written of [join(".local", "share", "amp"), join(".config", "Kiro")]) expect(existsSync(join(home, written))).toBe(false);
  });
});
