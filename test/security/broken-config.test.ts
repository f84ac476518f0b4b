import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { CliResult } from "../helpers/cli.js";
import { tempHome, useSimulator } from "../helpers/harness.js";

/**
 * A config file that cannot be read or parsed is a usage error (exit 2) for `watch` and `history`
 * as for every command: `watch --count N` used to print the error and retry every --interval for
 * ever (a cron job piled up processes), and `history` ended 0 without a word.
 */

const sim = useSimulator();
const scratch = tempHome();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const BIN = join(import.meta.dirname, "..", "..", "bin", "run.cjs");

/** The CLI, ended after `limitMs` when it has not ended itself (code null then): a watch that never ends fails the test, not the run. */
function runBounded(args: string[], env: Record<string, string | undefined>, limitMs = 15_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const file = (name: string, text: string) => {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
};

const BROKEN: [string, () => string][] = [
  ["invalid JSON", () => file("invalid.json", '{"version": 1, "providers": [')],
  [
    "a FIFO",
    () => {
      const path = join(scratch, "fifo.json");
      execFileSync("mkfifo", [path]);
      return path;
    },
  ],
  ["a device", () => "/dev/zero"],
  [
    "a directory",
    () => {
      const path = join(scratch, "dir.json");
      mkdirSync(path);
      return path;
    },
  ],
  ["too large", () => file("large.json", `{"version":1,"providers":[]${" ".repeat(1024 * 1024)}}`)],
  ["too deep", () => file("deep.json", `{"version":1,"providers":[],"x":${"[".repeat(100_000)}${"]".repeat(100_000)}}`)],
  [
    "a symlink loop",
    () => {
      const path = join(scratch, "loop.json");
      symlinkSync(join(scratch, "loop-b.json"), path);
      symlinkSync(path, join(scratch, "loop-b.json"));
      return path;
    },
  ],
];

describe("a config that cannot be read or parsed", () => {
  for (const [name, make] of BROKEN) {
    it(`${name}: watch --count 2 and history exit 2 at once, naming the file`, { timeout: 40_000 }, async () => {
      const config = make();
      const env = sim.env({ QUOTABAR_CONFIG: config });
      const watch = await runBounded(["watch", "--count", "2", "--interval", "10s", "--no-notify", "-p", "zai"], env);
      expect(watch.code).toBe(2);
      expect(watch.stderr).toContain(`Error: ${config}`);
      expect(watch.stderr.match(/Error:/g)).toHaveLength(1); // said once, not once per refresh
      const history = await runBounded(["history", "-p", "zai"], env);
      expect(history.code).toBe(2);
      expect(history.stderr).toContain(`Error: ${config}`);
    });
  }

  it("a watch without --count ends at once too (exit 2) when its first refresh cannot read the config", { timeout: 20_000 }, async () => {
    const config = file("invalid-endless.json", "{ not json");
    const watch = await runBounded(["watch", "--json", "--no-notify", "-p", "zai"], sim.env({ QUOTABAR_CONFIG: config }));
    expect(watch.code).toBe(2);
    expect(watch.stdout).toContain(`"code": "config"`);
  });
});
