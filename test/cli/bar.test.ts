import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { useSimulator } from "../helpers/harness.js";
import { writeConfig } from "../helpers/write-config.js";

const sim = useSimulator();
const cacheFile = (...parts: string[]) => join(sim.home, ".cache", "quotabar", ...parts);
const requestsOf = (id: string) => sim.sim.requests.filter((r) => r.providerId === id).length;

/** Only these providers' credentials (and the simulator's origin map): what a machine with two of them set up has. */
function envWith(...ids: string[]): Record<string, string | undefined> {
  const keys = Object.assign({}, ...sim.sim.providers.filter((p) => ids.includes(p.id)).map((p) => p.env));
  return {
    PATH: process.env.PATH,
    HOME: sim.home,
    QUOTABAR_SECRET_STORE: "memory",
    QUOTABAR_ORIGIN_MAP: sim.env().QUOTABAR_ORIGIN_MAP,
    ...keys,
  };
}

function waybar(stdout: string) {
  const lines = stdout.split("\n").filter((line) => line !== "");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] as string) as { text: string; alt: string; tooltip: string; class: string; percentage: number };
}

describe("quotabar bar: the kept snapshots first, a refresh only past --max-age", () => {
  it("the first poll fetches; the next ones within --max-age make no request; an old snapshot refreshes only its provider", async () => {
    const args = ["bar", "--format", "waybar", "-p", "openrouter", "-p", "warp"];
    const first = await runCli(args, sim.env());
    expect(first.code, first.stderr).toBe(0);
    expect(requestsOf("openrouter")).toBeGreaterThan(0);
    expect(requestsOf("warp")).toBeGreaterThan(0);
    const shown = waybar(first.stdout);
    expect(shown).toMatchObject({ text: "warp 81%", alt: "warp", class: "warning", percentage: 81 });

    sim.sim.requests.length = 0;
    const again = await runCli(args, sim.env());
    expect(again.code, again.stderr).toBe(0);
    expect(sim.sim.requests).toEqual([]);
    expect(waybar(again.stdout)).toMatchObject({ text: "warp 81%", class: "warning", percentage: 81 });

    // OpenRouter's snapshot is an hour old: only it is asked again
    const file = cacheFile("snapshots", "openrouter.json");
    const entry = JSON.parse(readFileSync(file, "utf8"));
    entry.usage.fetchedAt = new Date(Date.now() - 3_600_000).toISOString();
    writeFileSync(file, JSON.stringify(entry));
    const later = await runCli(args, sim.env());
    expect(later.code, later.stderr).toBe(0);
    expect(requestsOf("openrouter")).toBeGreaterThan(0);
    expect(requestsOf("warp")).toBe(0);
    expect(Date.parse(JSON.parse(readFileSync(file, "utf8")).usage.fetchedAt)).toBeGreaterThan(Date.now() - 60_000);

    // --max-age 0 refreshes every time
    sim.sim.requests.length = 0;
    expect((await runCli([...args, "--max-age", "0"], sim.env())).code).toBe(0);
    expect(requestsOf("warp")).toBeGreaterThan(0);
  });

  it("pollers that start together refresh a provider once: the others wait for its lock and read what it kept", async () => {
    sim.sim.setDelay(400);
    const one = await runCli(["bar", "-p", "openrouter", "--max-age", "0"], sim.env());
    expect(one.code, one.stderr).toBe(0);
    const perRefresh = requestsOf("openrouter");
    expect(perRefresh).toBeGreaterThan(0);
    // an empty cache, five pollers at once
    await runCli(["cache", "clear"], sim.env());
    sim.sim.requests.length = 0;
    const polls = await Promise.all(Array.from({ length: 5 }, () => runCli(["bar", "--format", "waybar", "-p", "openrouter"], sim.env())));
    for (const poll of polls) expect(poll.code, poll.stderr).toBe(0);
    expect(requestsOf("openrouter")).toBe(perRefresh);
    expect(new Set(polls.map((poll) => waybar(poll.stdout).text))).toEqual(new Set(["openrouter 37%"]));
    expect(existsSync(cacheFile("refresh", "openrouter.lock"))).toBe(false);
  });

  it("a failing provider is shown as an error and asked again only after --max-age, not at every poll", async () => {
    sim.sim.setScenario("warp", "upstream_500");
    const args = ["bar", "--format", "waybar", "-p", "warp"];
    const failed = await runCli(args, sim.env());
    expect(failed.code, failed.stderr).toBe(0);
    const shown = waybar(failed.stdout);
    expect(shown).toMatchObject({ text: "quotabar", class: "error", percentage: 0 });
    expect(shown.tooltip).toMatch(/^Warp\n {2}upstream: /);
    expect(requestsOf("warp")).toBeGreaterThan(0);
    sim.sim.requests.length = 0;
    expect(waybar((await runCli(args, sim.env())).stdout).class).toBe("error");
    expect(sim.sim.requests).toEqual([]);
    // back up: after --max-age the next poll asks again
    sim.sim.setScenario("warp", "ok");
    expect(waybar((await runCli([...args, "--max-age", "0"], sim.env())).stdout)).toMatchObject({ text: "warp 81%", class: "warning" });
  });

  it("without -p: the enabled providers, chosen once per --max-age (kept beside the snapshots)", async () => {
    const env = envWith("openrouter", "warp");
    const first = await runCli(["bar"], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.split("\n")[0]).toBe("openrouter 37% · warp 81%");
    expect(JSON.parse(readFileSync(cacheFile("bar", "selection.json"), "utf8")).ids).toEqual(["openrouter", "warp"]);
    sim.sim.requests.length = 0;
    const second = await runCli(["bar"], env);
    expect(second.stdout).toBe(first.stdout);
    expect(sim.sim.requests).toEqual([]);
  });

  it("i3blocks: exit code 33 (urgent) when a meter is past the highest notify threshold, 0 otherwise", async () => {
    const ok = await runCli(["bar", "--format", "i3blocks", "-p", "openrouter"], sim.env());
    expect(ok).toMatchObject({ code: 0, stdout: "openrouter 37%\nopenrouter 37%\n#a6e3a1\n" });
    const removeConfig = writeConfig(sim.home, { providers: [], notify: { thresholds: [20, 30] } });
    try {
      const urgent = await runCli(["bar", "--format", "i3blocks", "-p", "openrouter"], sim.env());
      expect(urgent).toMatchObject({ code: 33, stdout: "openrouter 37%\nopenrouter 37%\n#f38ba8\n" });
    } finally {
      removeConfig();
    }
  });

  it("a mistake in the arguments is oclif's usage error (exit 2), and --help describes the command", async () => {
    const badAge = await runCli(["bar", "--max-age", "8d"], sim.env());
    expect(badAge.code).toBe(2);
    expect(badAge.stderr).toContain("Invalid --max-age: 8d");
    const badFormat = await runCli(["bar", "--format=lemonbar"], sim.env());
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toContain("waybar, i3blocks, polybar, tmux, swiftbar, xbar, text");
    const unknown = await runCli(["bar", "-p", "nope"], sim.env());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("nope");
    const help = await runCli(["bar", "--help"], sim.env());
    expect(help.stdout).toContain("--max-age");
    expect(sim.sim.requests).toEqual([]);
  });
});
