import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_IDS } from "../../providers/registry.js";
import { runCli, type CliResult } from "../helpers/cli.js";
import { tempHome } from "../helpers/harness.js";
import { httpGet } from "../helpers/http-get.js";

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

describe("quotabar demo, the Gemini CLI", () => {
  it("shows a Workspace account's quotas, and an account refused since June 2026 with Antigravity to use instead", async () => {
    const ok = await runCli(["demo", "-p", "gemini"], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^Gemini CLI · Workspace\n {2}Pro +[█░]+ +42% · resets in /);
    expect(ok.stdout).toContain("Account: dev@acme.example");
    const refused = await runCli(["demo", "-p", "gemini", "--scenario", "gemini=consumer_refused"], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(
      "✖ forbidden: Google no longer lets the Gemini CLI sign in with individual, Google AI Pro or Ultra accounts",
    );
    expect(refused.stdout).toContain("quotabar -p antigravity");
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

describe("quotabar demo --serve", () => {
  it("prints the address of serve's page, which shows every demo provider, and stops on SIGTERM (exit 0)", async () => {
    const child = spawn(process.execPath, [join(import.meta.dirname, "..", "..", "bin", "run.cjs"), "demo", "--serve"], {
      env: { PATH: process.env.PATH, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d) => {
        stdout += d;
        const found = /^Open (http:\/\/127\.0\.0\.1:\d+)\/ to see every provider at a glance/m.exec(stdout);
        if (found) resolve(found[1] as string);
      });
      child.on("exit", (code) => reject(new Error(`demo --serve exited ${code}`)));
    });
    const page = await httpGet(`${url}/`);
    expect([page.status, page.body]).toEqual([200, expect.stringContaining('<script src="page.js" defer>')]);
    expect((await httpGet(`${url}/page.js`)).status).toBe(200);
    // every provider the simulator plays (all but those it has no upstream for), each refreshed once
    const health = async () => JSON.parse((await httpGet(`${url}/healthz`)).body) as { providers: number; refreshed: number };
    while ((await health()).refreshed < (await health()).providers) await new Promise((resolve) => setTimeout(resolve, 200));
    const doc = JSON.parse((await httpGet(`${url}/usage`)).body) as { providers: { id: string; ok: boolean }[] };
    expect(doc.providers.length).toBeGreaterThanOrEqual(PROVIDER_IDS.length - 1);
    expect(doc.providers.filter((p) => !p.ok)).toEqual([]);
    expect(stdout).toContain("export QUOTABAR_ORIGIN_MAP=");
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 60_000);
});
