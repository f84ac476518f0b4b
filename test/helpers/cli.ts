import { spawn } from "node:child_process";
import { join } from "node:path";

const BIN = join(import.meta.dirname, "..", "..", "bin", "run.cjs");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built `quotabar` bin as a user would, with exactly the given environment (plus PATH, and
 * cookie headers cached in memory unless the test sets QUOTABAR_SECRET_STORE itself: no test touches
 * the OS keyring by accident).
 */
export function runCli(args: string[], env: Record<string, string | undefined>, stdin?: string): Promise<CliResult> {
  const given = { PATH: process.env.PATH, QUOTABAR_SECRET_STORE: "memory", ...env };
  const cleanEnv = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return runProgram(process.execPath, [BIN, ...args], { env: cleanEnv, stdin: stdin ?? "" });
}

/** Any program, asynchronously (a test worker never blocks on a child), its output collected. */
export function runProgram(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: string; uid?: number; gid?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const { stdin, ...spawnOptions } = options;
    const child = spawn(command, args, { ...spawnOptions, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}
