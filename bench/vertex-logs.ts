// npm run bench:vertex: the Vertex AI cost scan over a heavy user's Claude Code logs, cold and warm.
// Prints the figures against the goals; asserts nothing. Runs from the sources (vite-node), no build needed.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { vertexCost } from "../providers/vertexai/cost.js";
import { scanLogs } from "../providers/kit/cost/log-scan.js";
import { writeClaudeLogCorpus } from "../providers/vertexai/simulator.js";

const FILES = Number(process.env.BENCH_FILES ?? 100);
const LINES = Number(process.env.BENCH_LINES ?? 2_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const GOAL_COLD_MS = 1_000;
const GOAL_WARM_MS = 50;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const verdict = (value: number, goal: number) =>
  `${value.toFixed(0).padStart(6)} ms   goal <= ${goal} ms   ${value <= goal ? "ok" : "OVER"}`;

const root = mkdtempSync(join(tmpdir(), "quotabar-bench-vertex-"));
const env = { HOME: root, XDG_CACHE_HOME: join(root, "cache") };
const now = new Date();
try {
  const started = process.hrtime.bigint();
  const corpus = await writeClaudeLogCorpus(join(root, ".claude", "projects"), { files: FILES, lines: LINES, now, vertexShare: 0.3 });
  console.log(
    `corpus: ${FILES} files x ${LINES} lines, ${(corpus.bytes / 1e6).toFixed(0)} MB, 30 % Vertex lines (written in ${ms(started).toFixed(0)} ms; ${cpus().length} CPUs)`,
  );

  const cold: number[] = [];
  const coldCpu: number[] = [];
  let total = 0;
  for (let run = 0; run < Math.max(1, Math.ceil(RUNS / 2)); run++) {
    rmSync(env.XDG_CACHE_HOME, { recursive: true, force: true });
    const start = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const { report } = await vertexCost({ env, now, since: "2000-01-01" });
    cold.push(ms(start));
    const used = process.cpuUsage(cpu);
    coldCpu.push((used.user + used.system) / 1000);
    total = report.total.costUsd ?? 0;
  }
  const warm: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = process.hrtime.bigint();
    const { report } = await vertexCost({ env, now, since: "2000-01-01" });
    warm.push(ms(start));
    if (Math.abs((report.total.costUsd ?? 0) - total) > 1e-6) throw new Error("a warm run disagrees with the cold one");
  }
  // one session goes on: 1 % more lines in one file
  const grown = corpus.paths[0] as string;
  appendFileSync(
    grown,
    readFileSync(corpus.paths[1] as string, "utf8")
      .split("\n")
      .slice(0, LINES / 100)
      .join("\n") + "\n",
  );
  const appendStart = process.hrtime.bigint();
  const appended = await scanLogs("claude", env);
  const appendMs = ms(appendStart);

  console.log(`\ncost scan (${cold.length} cold runs, ${RUNS} warm runs; medians)`);
  console.log(
    `  cold (no index)           ${verdict(median(cold), GOAL_COLD_MS)}   (${((corpus.bytes / 1e6 / median(cold)) * 1000).toFixed(0)} MB/s)`,
  );
  console.log(
    `  cold, CPU time            ${median(coldCpu).toFixed(0).padStart(6)} ms   (what the scan itself cost; the wall time above also holds waiting for a busy machine)`,
  );
  console.log(`  warm (nothing changed)    ${verdict(median(warm), GOAL_WARM_MS)}`);
  console.log(
    `  one file appended to      ${appendMs.toFixed(0).padStart(6)} ms   (${appended.filesRead} file, ${(appended.bytesRead / 1e3).toFixed(0)} kB read)`,
  );
  console.log(`  total found               $${total.toFixed(2)}`);
  console.log(`\nbench process RSS          ${(process.memoryUsage().rss / 1048576).toFixed(1)} MiB`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
