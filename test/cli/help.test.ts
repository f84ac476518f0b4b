import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { useSimulator } from "../helpers/harness.js";

const sim = useSimulator();

describe("help, version and flags a first-time user tries", () => {
  it("shows the usage flags first in the root --help, then every command", async () => {
    for (const flag of ["--help", "-h", "help"]) {
      const run = await runCli([flag], { HOME: sim.home });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/FLAGS[^\n]*\n\s+-p, --provider=<id>[\s\S]*--json[\s\S]*--status[\s\S]*--timeout=<s>/);
      for (const command of ["usage", "providers", "demo", "login", "logout", "status", "config set-key", "cache clear"]) {
        expect(run.stdout).toContain(`  ${command} `);
      }
    }
  });

  it("answers `version` as well as --version", async () => {
    for (const flag of ["--version", "-v", "version"]) {
      const run = await runCli([flag], { HOME: sim.home });
      expect(run.stdout).toMatch(/^quotabar\/\d+\.\d+\.\d+ \S+ node-v\d+/);
    }
  });

  it("refuses a source the provider does not have as a usage error naming its sources", async () => {
    const run = await runCli(["-p", "openrouter", "--source", "web"], sim.env());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('OpenRouter has no source "web"');
    expect(run.stderr).toContain("Its sources: auto, api.");
    const kilo = await runCli(["-p", "kilo", "--source", "cli", "--json"], sim.env());
    expect(JSON.parse(kilo.stdout).providers[0].source).not.toBe("web");
    // every provider alike: Kilo reads "web" in a config entry as auto, but a forced --source web is not one of its sources
    for (const [id, name, sources] of [
      ["kilo", "Kilo Code", "auto, api, cli"],
      ["warp", "Warp", "auto, api"],
    ]) {
      const refused = await runCli(["-p", id as string, "--source", "web"], sim.env());
      expect(refused.code, id).toBe(2);
      expect(refused.stderr).toContain(`${name} has no source "web"`);
      expect(refused.stderr).toContain(`Its sources: ${sources}.`);
    }
  });
});
