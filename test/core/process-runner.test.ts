import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { tempHome } from "../helpers/harness.js";
import { stillRunning } from "../helpers/processes.js";

const runner = new NodeProcessRunner();

describe("NodeProcessRunner", () => {
  it("runs without a shell, passing env and stdin, and collects output and exit code", async () => {
    const result = await runner.run("sh", ["-c", 'read line; echo "got $line and $SECRET"; echo oops >&2; exit 3'], {
      env: { PATH: process.env.PATH, SECRET: "from-env" },
      stdin: "from-stdin\n",
    });
    expect(result).toEqual({ exitCode: 3, stdout: "got from-stdin and from-env\n", stderr: "oops\n", timedOut: false });
    const literal = await runner.run("echo", ["$HOME; rm -rf /"]);
    expect(literal.stdout).toBe("$HOME; rm -rf /\n");
  });

  it("kills the whole process group on timeout, grandchildren included", async () => {
    const dir = tempHome();
    const pidFile = join(dir, "grandchild.pid");
    const result = await runner.run("sh", ["-c", `sleep 30 & echo $! > ${pidFile}; wait`], { timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    const grandchild = Number(execFileSync("cat", [pidFile], { encoding: "utf8" }).trim());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stillRunning(grandchild)).toBe(false);
  });

  it("kills a child that goes quiet longer than the idle timeout", async () => {
    const result = await runner.run("sh", ["-c", "echo start; sleep 30"], { idleTimeoutMs: 300, timeoutMs: 20_000 });
    expect(result).toMatchObject({ timedOut: true, stdout: "start\n" });
  });

  it("rejects when the program does not exist, and which() finds programs on PATH and extra dirs", async () => {
    await expect(runner.run("quotabar-no-such-program", [])).rejects.toMatchObject({ code: "ENOENT" });
    expect(await runner.which("sh")).toMatch(/\/sh$/);
    const dir = join(tempHome(), "bin");
    mkdirSync(dir);
    writeFileSync(join(dir, "kiro-cli"), "#!/bin/sh\necho hi\n");
    chmodSync(join(dir, "kiro-cli"), 0o755);
    expect(await new NodeProcessRunner("/nonexistent").which("kiro-cli", [dir])).toBe(join(dir, "kiro-cli"));
    expect(await new NodeProcessRunner("/nonexistent").which("kiro-cli")).toBeNull();
  });

  it.skipIf(process.platform !== "linux")("reads the process table from /proc, each command line as ps prints it", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)", "quotabar-probe", "--csrf_token", "a b"], {
      stdio: "ignore",
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 100)); // exec'd: its command line is node's
      const table = await runner.processTable();
      const probe = table?.find((p) => p.pid === child.pid);
      const ps = execFileSync("ps", ["-ww", "-o", "command=", "-p", String(child.pid)], { encoding: "utf8" }).trim();
      expect(probe?.command).toBe(ps);
      expect(probe?.command).toContain("quotabar-probe --csrf_token a b");
      // a retitled process (vitest names its workers) reads as ps shows it too
      const own = execFileSync("ps", ["-ww", "-o", "command=", "-p", String(process.pid)], { encoding: "utf8" }).trim();
      expect(table?.find((p) => p.pid === process.pid)?.command).toBe(own);
      expect(table?.every((p) => Number.isInteger(p.pid) && p.pid > 0 && p.command.trim() === p.command && p.command !== "")).toBe(true);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
