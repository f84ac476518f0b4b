import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { createQuotabar } from "../../library/create-quotabar.js";
import { tempHome } from "../helpers/harness.js";

/**
 * A program quotabar runs (a vendor CLI, a notify command) may print without end. Its output is
 * read with a bound: a vendor CLI's answer up to a cap (8 MiB), past which the program is ended and
 * the run is an error naming the cap, never a reading; a notify command's first line of stderr
 * only. Before, 300 MB from kiro-cli took quotabar to 670 MiB and was shown as valid.
 */

const runner = new NodeProcessRunner();
const homes: string[] = [];
afterAll(() => homes.forEach((home) => rmSync(home, { recursive: true, force: true })));

/** `bytes` bytes of `x` on stdout (`>&2`: on stderr), from a shell. */
const flood = (bytes: number, to = "") => `head -c ${bytes} /dev/zero | tr '\\0' x ${to}`;

describe("the process runner reads at most what its caller needs", () => {
  it("ends a program whose answer passes the cap, and fails the run naming the cap, never its output", async () => {
    const run = runner.run("sh", ["-c", `echo 'a valid-looking start'; ${flood(30_000_000)}`], { timeoutMs: 20_000 });
    await expect(run).rejects.toMatchObject({
      name: "QuotabarError",
      code: "upstream",
      message: "sh printed more than 8 MiB; it was stopped and its output not read",
    });
  });

  it("stops a program that never stops printing, at the cap its caller sets, on stderr as on stdout", async () => {
    const options = { maxOutputBytes: 1024 * 1024, timeoutMs: 20_000 };
    await expect(runner.run("yes", ["quotabar"], options)).rejects.toThrow("yes printed more than 1 MiB");
    await expect(runner.run("sh", ["-c", "yes quotabar >&2"], options)).rejects.toThrow("sh printed more than 1 MiB");
  });

  it("reads an answer just under the cap whole", async () => {
    const result = await runner.run("sh", ["-c", flood(1024 * 1024)], { maxOutputBytes: 1024 * 1024 });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(result.stdout).toHaveLength(1024 * 1024);
  });

  it("keeps only stderr's first line for a caller that wants no more, and lets the program finish", async () => {
    const script = `echo 'cannot reach the webhook' >&2; ${flood(30_000_000, ">&2")}; ${flood(30_000_000)}; exit 4`;
    const result = await runner.run("sh", ["-c", script], { keep: "stderr-first-line", timeoutMs: 20_000 });
    expect(result).toEqual({ exitCode: 4, stdout: "", stderr: "cannot reach the webhook", timedOut: false });
  });
});

describe("a vendor CLI that prints without end", () => {
  it("kiro: a table followed by 30 MB is an error naming the cap, not a reading", async () => {
    const home = tempHome();
    homes.push(home);
    const bin = join(home, "bin");
    mkdirSync(bin);
    const table = readFileSync(join(import.meta.dirname, "..", "..", "providers", "kiro", "fixtures", "boxed.txt"), "utf8");
    writeFileSync(join(bin, "kiro-cli"), `#!/bin/sh\n[ "$1" = whoami ] && exit 0\ncat <<'END'\n${table}END\n${flood(30_000_000)}\n`);
    chmodSync(join(bin, "kiro-cli"), 0o755);
    const doc = await createQuotabar({ env: { HOME: home, PATH: `${bin}:${process.env.PATH}` } }).usage({
      providers: ["kiro"],
      timeoutMs: 20_000,
    });
    const usage = doc.providers[0]!;
    expect(usage).toMatchObject({ ok: false, primary: null, error: { code: "upstream" } });
    expect(usage.error?.message).toBe("kiro-cli printed more than 8 MiB; it was stopped and its output not read");
  });
});
