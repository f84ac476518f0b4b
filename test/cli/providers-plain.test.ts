import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runProgram, type CliResult } from "../helpers/cli.js";

const RUN_OCLIF = join(import.meta.dirname, "..", "..", "dist", "oclif-cli", "run-oclif.js");
const BIN_URL = new URL("../../bin/run.cjs", import.meta.url).href;

/** The same command through oclif, as bin/run.cjs would hand it over without its plain path. */
function throughOclif(args: string[], env: Record<string, string>): Promise<CliResult> {
  const script = `const { runOclif } = await import(${JSON.stringify(RUN_OCLIF)}); await runOclif(${JSON.stringify(args)}, ${JSON.stringify(BIN_URL)});`;
  return runProgram(process.execPath, ["--input-type=module", "-e", script], { env });
}

const homeWith = (config?: string) => {
  const home = mkdtempSync(join(tmpdir(), "qb-plain-"));
  if (config !== undefined) {
    mkdirSync(join(home, ".config", "quotabar"), { recursive: true });
    writeFileSync(join(home, ".config", "quotabar", "config.json"), config);
  }
  return {
    PATH: process.env.PATH ?? "",
    HOME: home,
    QUOTABAR_SECRET_STORE: "memory",
    OPENROUTER_API_KEY: "sk-or-v1-plain-0123456789",
    NO_COLOR: "1",
  };
};

/** `quotabar providers` (and `--json`) is answered before oclif loads: it must say exactly what the oclif command says. */
describe("quotabar providers without oclif", () => {
  it("prints the oclif command's table and JSON, byte for byte", async () => {
    const env = homeWith(JSON.stringify({ providers: [{ id: "warp", enabled: false, apiKey: "wk-0123456789abcdef0123" }] }));
    for (const args of [["providers"], ["providers", "--json"]]) {
      const [plain, oclif] = await Promise.all([runCli(args, env), throughOclif(args, env)]);
      expect(plain.code).toBe(0);
      expect(plain.stdout).toBe(oclif.stdout);
      expect(plain.stderr).toBe("");
    }
    const rows = JSON.parse((await runCli(["providers", "--json"], env)).stdout) as { id: string; enabled: boolean }[];
    expect(rows.find((r) => r.id === "openrouter")?.enabled).toBe(true);
    expect(rows.find((r) => r.id === "warp")?.enabled).toBe(false);
  });

  it("leaves a broken config to oclif's error output and exit code", async () => {
    const env = homeWith("{ not json");
    const [plain, oclif] = await Promise.all([runCli(["providers"], env), throughOclif(["providers"], env)]);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toBe(oclif.stderr);
    expect(plain.stderr).toMatch(/config/i);
  });

  it("leaves any other flag to oclif", async () => {
    const env = homeWith();
    const help = await runCli(["providers", "--help"], env);
    expect(help.stdout).toMatch(/USAGE\s+\$ quotabar providers/);
    const unknown = await runCli(["providers", "--bogus"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Nonexistent flag: --bogus/);
  });
});
