import { readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageDocumentSchema } from "../../domain/usage-document.js";
import { runCli } from "../helpers/cli.js";
import { tempHome, useSimulator } from "../helpers/harness.js";
import { OPENROUTER_TEST_KEY } from "../../providers/openrouter/simulator.js";

const sim = useSimulator();

describe("quotabar usage (the default command)", () => {
  it("prints exactly the usage document with --json and exits 0", async () => {
    const result = await runCli(["-p", "openrouter", "-p", "warp", "--json"], sim.env());
    expect(result.code).toBe(0);
    const doc = UsageDocumentSchema.parse(JSON.parse(result.stdout));
    expect(doc.providers.map((p) => [p.id, p.ok])).toEqual([
      ["openrouter", true],
      ["warp", true],
    ]);
    expect(doc.providers[0]!.primary?.usedPercent).toBe(37.36);
  });

  it("exits 1 with the document when a provider fails, the others unaffected", async () => {
    sim.sim.setScenario("zai", "malformed");
    const result = await runCli(["-p", "zai", "-p", "openrouter", "--json"], sim.env());
    expect(result.code).toBe(1);
    const doc = JSON.parse(result.stdout);
    expect(doc.providers[0].error.code).toBe("parse");
    expect(doc.providers[1].ok).toBe(true);
  });

  it("times out a hanging upstream after --timeout while the others return", async () => {
    sim.sim.setScenario("warp", "slow");
    const started = Date.now();
    const result = await runCli(["-p", "warp", "-p", "zai", "--json", "--timeout", "1"], sim.env());
    expect(Date.now() - started).toBeLessThan(10_000);
    const doc = JSON.parse(result.stdout);
    expect(doc.providers[0].error).toMatchObject({ code: "timeout" });
    expect(doc.providers[1].ok).toBe(true);
    expect(result.code).toBe(1);
  });

  it("prints text blocks with bars, percent, reset countdown and no colour when not a TTY", async () => {
    const result = await runCli(["-p", "warp"], sim.env());
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Warp");
    expect(result.stdout).toMatch(/Credits\s+█+░+\s+81%\s+1,215 \/ 1,500 credits · resets in \d+d \d+h/);
    expect(result.stdout).not.toContain("\u001b[");
  });

  it("shows errors with their hint in text", async () => {
    const result = await runCli(["-p", "openrouter"], sim.env({ OPENROUTER_API_KEY: undefined }));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("✖ not_configured: OpenRouter API key not configured");
    expect(result.stdout).toContain(
      "hint: Run `quotabar config set-key openrouter --stdin` to store the key, or export OPENROUTER_API_KEY.",
    );
  });

  it("exits 2 for an unknown id and lists the valid ids, with a small JSON error under --json", async () => {
    const text = await runCli(["-p", "nope"], sim.env());
    expect(text.code).toBe(2);
    expect(text.stderr).toContain("copilot, openrouter, zai");
    const json = await runCli(["-p", "nope", "--json"], sim.env());
    expect(json.code).toBe(2);
    const parsed = JSON.parse(json.stdout);
    expect(Object.keys(parsed)).toEqual(["error"]);
    expect(parsed.error.code).toBe("usage");
    expect(json.stdout.length).toBeLessThan(600);
  });

  it("exits 2 for a bad flag and for a bad origin map", async () => {
    expect((await runCli(["--frobnicate"], sim.env())).code).toBe(2);
    const badMap = await runCli(["-p", "warp"], sim.env({ QUOTABAR_ORIGIN_MAP: '{"https://app.warp.dev": "http://evil.example/x"}' }));
    expect(badMap.code).toBe(2);
    expect(badMap.stderr).toContain("loopback");
  });

  it("never prints a key, in text or JSON", async () => {
    sim.sim.setScenario("openrouter", "unauthorized");
    for (const args of [
      ["-p", "openrouter"],
      ["-p", "openrouter", "--json"],
    ]) {
      const result = await runCli(args, sim.env());
      expect(result.stdout + result.stderr).not.toContain(OPENROUTER_TEST_KEY);
    }
  });
});

describe("quotabar config", () => {
  it("set-key reads stdin, writes 0600, keeps unknown fields, enables the provider; show masks it", async () => {
    const home = tempHome();
    mkdirSync(join(home, ".config", "quotabar"), { recursive: true });
    const file = join(home, ".config", "quotabar", "config.json");
    writeFileSync(file, JSON.stringify({ version: 1, mine: true, providers: [{ id: "openrouter", note: "keep me" }] }));
    const set = await runCli(["config", "set-key", "openrouter", "--stdin"], { HOME: home }, `${OPENROUTER_TEST_KEY}\n`);
    expect(set.code).toBe(0);
    expect(set.stdout + set.stderr).not.toContain(OPENROUTER_TEST_KEY);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      version: 1,
      mine: true,
      providers: [{ id: "openrouter", note: "keep me", apiKey: OPENROUTER_TEST_KEY, enabled: true }],
    });
    const show = await runCli(["config", "show"], { HOME: home });
    expect(show.stdout).toContain("keep me");
    expect(show.stdout).not.toContain(OPENROUTER_TEST_KEY);
    expect((await runCli(["config", "path"], { HOME: home })).stdout.trim()).toBe(file);
  });

  it("set-key refuses an empty stdin and has no way to take the key as an argument", async () => {
    const home = tempHome();
    expect((await runCli(["config", "set-key", "warp", "--stdin"], { HOME: home }, "")).code).toBe(2);
    expect((await runCli(["config", "set-key", "warp", "wk-abc"], { HOME: home })).code).toBe(2);
  });

  it("reports a corrupted config with line and column, exits 2, and leaves it byte-for-byte untouched", async () => {
    const home = tempHome();
    mkdirSync(join(home, ".config", "quotabar"), { recursive: true });
    const file = join(home, ".config", "quotabar", "config.json");
    const broken = '{\n  "providers": [\n    {"id": "zai" "apiKey": "x"}\n  ]\n}\n';
    writeFileSync(file, broken);
    for (const args of [
      ["config", "validate"],
      ["-p", "zai"],
      ["config", "set-key", "zai", "--stdin"],
    ]) {
      const result = await runCli(args, { HOME: home }, "k\n");
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${file}:3:18`);
    }
    expect(readFileSync(file, "utf8")).toBe(broken);
  });

  it("survives tens of concurrent set-key calls with a valid file holding every key", async () => {
    const home = tempHome();
    // every provider that takes an API key, three times over
    const ids = ["copilot", "zai", "kimi", "kilo", "kimik2", "openrouter", "warp", "minimax"];
    const runs = [...ids, ...ids, ...ids].map((id, i) => runCli(["config", "set-key", id, "--stdin"], { HOME: home }, `key-${i}-${id}\n`));
    const results = await Promise.all(runs);
    expect(results.map((r) => r.code)).toEqual(results.map(() => 0));
    const config = JSON.parse(readFileSync(join(home, ".config", "quotabar", "config.json"), "utf8"));
    expect(config.providers.map((p: { id: string }) => p.id).sort()).toEqual([...ids].sort());
  }, 60_000);
});

describe("quotabar demo and providers", () => {
  it("demo shows every simulated provider with meters, touching no user files", async () => {
    const home = tempHome();
    const result = await runCli(["demo", "--json"], { HOME: home });
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc.providers.map((p: { id: string }) => p.id)).toEqual([
      "copilot",
      "openrouter",
      "zai",
      "warp",
      "kimi",
      "kilo",
      "minimax",
      "kimik2",
      "kiro",
      "vertexai",
      "augment",
      "amp",
      "jetbrains",
      "factory",
      "opencode",
      "ollama",
      "claude",
      "codex",
      "cursor",
      "gemini",
    ]);
    expect(doc.providers.every((p: { primary: unknown }) => p.primary !== null)).toBe(true);
    expect(() => statSync(join(home, ".config"))).toThrow();
  });

  it("providers lists all 19 with credentials found from the environment", async () => {
    const result = await runCli(["providers", "--json"], sim.env({ WARP_API_KEY: undefined }));
    const rows = JSON.parse(result.stdout) as { id: string; credentialsFound: boolean; enabled: boolean; unofficial: boolean }[];
    expect(rows).toHaveLength(21);
    expect(rows.find((r) => r.id === "openrouter")).toMatchObject({ credentialsFound: true, enabled: true });
    expect(rows.find((r) => r.id === "warp")).toMatchObject({ credentialsFound: false, enabled: false });
    expect(rows.find((r) => r.id === "kimik2")).toMatchObject({ unofficial: true, enabled: false });
  });
});
