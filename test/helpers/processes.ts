import { execFileSync } from "node:child_process";

/** Whether a process still runs (a killed one may linger as a zombie until something reaps it). */
export function stillRunning(pid: number): boolean {
  try {
    return !execFileSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" })
      .trim()
      .startsWith("Z");
  } catch {
    return false;
  }
}
