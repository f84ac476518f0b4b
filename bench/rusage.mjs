// Preloaded (`node --import`) into a quotabar process by bench/run.js, only in the runs that measure
// memory and CPU: on exit, the process's own peak RSS and CPU time go to file descriptor 3.
import { writeSync } from "node:fs";

process.on("exit", () => {
  const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
  try {
    writeSync(3, JSON.stringify({ maxRssKiB: maxRSS, cpuMs: (userCPUTime + systemCPUTime) / 1000 }));
  } catch {
    // not started by the bench (no fd 3): nothing to report
  }
});
