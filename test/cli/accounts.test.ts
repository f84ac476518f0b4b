import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseBarArgs } from "../../oclif-cli/bar/bar-args.js";
import { parseUsageArgs } from "../../oclif-cli/usage-plain.js";
import { OPENROUTER_TEAM_TEST_KEY } from "../../providers/openrouter/simulator.js";
import { runCli } from "../helpers/cli.js";
import { useSimulator } from "../helpers/harness.js";
import { writeConfig } from "../helpers/write-config.js";

/** Two OpenRouter accounts (the environment's key, and a team key in the config) in every CLI front end. */
describe("accounts in the CLI", () => {
  const sim = useSimulator();
  const team = () => writeConfig(sim.home, { providers: [{ id: "openrouter", account: "team", apiKey: OPENROUTER_TEAM_TEST_KEY }] });
  const configFile = () => join(sim.home, ".config", "quotabar", "config.json");
  const snapshot = (name: string) => join(sim.home, ".cache", "quotabar", "snapshots", `${name}.json`);

  it("-p openrouter shows every account, titled `OpenRouter · team`; -p openrouter:team one; `providers` lists it", async () => {
    const clear = team();
    try {
      const text = await runCli(["-p", "openrouter"], sim.env());
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(/^OpenRouter$/m);
      expect(text.stdout).toMatch(/^OpenRouter · team$/m);
      const one = JSON.parse((await runCli(["-p", "openrouter:team", "--json"], sim.env())).stdout);
      expect(one.providers.map((p: { account: string | null }) => p.account)).toEqual(["team"]);
      // the oclif path (a flag the plain reading leaves to it) answers the same
      const viaOclif = JSON.parse((await runCli(["usage", "-p", "openrouter:team", "--json", "--status"], sim.env())).stdout);
      expect(viaOclif.providers.map((p: { account: string | null }) => p.account)).toEqual(["team"]);
      const unknown = await runCli(["-p", "openrouter:nobody"], sim.env());
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain("Unknown account: openrouter:nobody");
      const listed = await runCli(["providers"], sim.env());
      expect(listed.stdout).toMatch(/^openrouter:team +OpenRouter +found +yes/m);
    } finally {
      clear();
    }
  });

  it("the plain readings (before oclif loads) take `id:account`, and leave a label no account can have to oclif", () => {
    expect(parseBarArgs(["-p", "OpenRouter:Team", "-p", "zai"])?.providers).toEqual(["openrouter:Team", "zai"]);
    expect(parseBarArgs(["-p", "openrouter:<b>"])).toBeNull();
    expect(parseUsageArgs(["-p", "openrouter:team", "--json"])?.request.providers).toEqual(["openrouter:team"]);
    expect(parseUsageArgs(["-p", "openrouter:a b"])).toBeNull();
  });

  it("bar: one item per account", async () => {
    const clear = team();
    try {
      const bar = await runCli(["bar", "--format", "waybar", "-p", "openrouter", "--max-age", "0"], sim.env());
      expect(bar.code, bar.stderr).toBe(0);
      const tooltip = JSON.parse(bar.stdout).tooltip as string;
      expect(tooltip).toContain("OpenRouter · team");
      const plain = await runCli(["bar", "--format", "tmux", "-p", "openrouter:team", "--max-age", "0"], sim.env());
      expect(plain.stdout).toMatch(/openrouter:team 75%/);
    } finally {
      clear();
    }
  });

  it("cache clear -p openrouter:team forgets that account only; -p openrouter every account", async () => {
    const clear = team();
    try {
      expect((await runCli(["-p", "openrouter", "--json"], sim.env())).code).toBe(0);
      expect([existsSync(snapshot("openrouter")), existsSync(snapshot("openrouter_team"))]).toEqual([true, true]);
      const one = await runCli(["cache", "clear", "-p", "openrouter:team"], sim.env());
      expect(one.stdout).toContain("Forgot what was kept for openrouter:team.");
      expect([existsSync(snapshot("openrouter")), existsSync(snapshot("openrouter_team"))]).toEqual([true, false]);
      expect((await runCli(["-p", "openrouter", "--json"], sim.env())).code).toBe(0);
      await runCli(["cache", "clear", "-p", "openrouter"], sim.env());
      expect([existsSync(snapshot("openrouter")), existsSync(snapshot("openrouter_team"))]).toEqual([false, false]);
    } finally {
      clear();
    }
  });

  it("config set-key --account stores the key in that account's entry; logout --account removes only it", async () => {
    const clear = writeConfig(sim.home, { providers: [{ id: "openrouter", apiKey: "sk-or-v1-default-key-0123456789" }] });
    try {
      const set = await runCli(
        ["config", "set-key", "openrouter", "--account", "team", "--stdin"],
        sim.env(),
        `${OPENROUTER_TEAM_TEST_KEY}\n`,
      );
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toContain("Saved the OpenRouter · team key");
      expect(set.stdout).not.toContain(OPENROUTER_TEAM_TEST_KEY);
      const written = JSON.parse(readFileSync(configFile(), "utf8"));
      expect(written.providers).toEqual([
        { id: "openrouter", apiKey: "sk-or-v1-default-key-0123456789" },
        { id: "openrouter", account: "team", apiKey: OPENROUTER_TEAM_TEST_KEY, enabled: true },
      ]);
      const bad = await runCli(["config", "set-key", "openrouter", "--account", "<b>x</b>", "--stdin"], sim.env(), "key\n");
      expect(bad.code).toBe(2);
      expect(bad.stderr).not.toContain("<b>");

      const out = await runCli(["logout", "openrouter", "--account", "team"], sim.env());
      expect(out.stdout).toContain("Removed the OpenRouter · team token");
      const after = JSON.parse(readFileSync(configFile(), "utf8"));
      expect(after.providers.map((e: { apiKey?: string }) => e.apiKey ?? null)).toEqual(["sk-or-v1-default-key-0123456789", null]);
    } finally {
      clear();
    }
  });

  it("a config naming one account twice, or a label with markup or control characters: exit 2, both lines named, the label never printed", async () => {
    const clear = writeConfig(sim.home, {
      providers: [
        { id: "openrouter", account: "team", apiKey: OPENROUTER_TEAM_TEST_KEY },
        { id: "openrouter", account: "team", apiKey: "sk-or-v1-other-0123456789abcdef" },
      ],
    });
    try {
      const twice = await runCli(["-p", "openrouter"], sim.env());
      expect(twice.code).toBe(2);
      expect(twice.stderr).toMatch(/config\.json:1:\d+: providers\[1\] is a second entry for the account of providers\[0\] \(line 1\)/);
      expect(twice.stderr).not.toContain(OPENROUTER_TEAM_TEST_KEY);
      for (const label of ["\u001b]8;;https://evil\u0007team", "<img src=x>"]) {
        writeConfig(sim.home, { providers: [{ id: "openrouter", account: label }] });
        const run = await runCli(["providers"], sim.env());
        expect(run.code).toBe(2);
        expect(run.stderr).toContain("providers[0].account must be a label of 1 to 32 letters, digits, -, _ or .");
        expect(run.stderr).not.toContain("evil");
        expect(run.stderr).not.toContain("<img");
      }
    } finally {
      clear();
    }
  });
});
