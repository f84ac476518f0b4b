import { spawn } from "node:child_process";
import { join } from "node:path";

const BIN = join(import.meta.dirname, "..", "..", "bin", "run.js");

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
  return new Promise((resolve, reject) => {
    const given = { PATH: process.env.PATH, QUOTABAR_SECRET_STORE: "memory", ...env };
    const cleanEnv = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}
