// npm run bench:cost: `quotabar cost` over a heavy user's Claude Code and Codex logs, cold (no index)
// and warm, against a naive pass (read each file whole, JSON.parse every line) and, when it is
// installed (on PATH or CCUSAGE_BIN), the native ccusage on the same logs. Prints the figures; asserts
// nothing. Needs a build (the CLI runs from dist/, as a user runs it).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { writeCodexLogCorpus } from "../providers/codex/simulator.js";
import { writeClaudeLogCorpus } from "../providers/vertexai/simulator.js";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin", "run.cjs");
const FILES = Number(process.env.BENCH_FILES ?? 100);
const LINES = Number(process.env.BENCH_LINES ?? 2_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const GOAL_WARM_MS = 50;

if (!existsSync(join(ROOT, "dist", "index.js"))) {
  console.error("bench: no build; run `npm run build` first");
  process.exit(2);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** Wall time of one process, from spawn to exit. */
function timed(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; stdout: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, stdout, code }));
  });
}

/** The naive baseline: every file read whole, every line parsed. */
function naivePass(dirs: string[]): number {
  let parsed = 0;
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith(".jsonl"))
        for (const line of readFileSync(path, "utf8").split("\n"))
          if (line) {
            JSON.parse(line);
            parsed++;
          }
    }
  };
  for (const dir of dirs) walk(dir);
  return parsed;
}

function findCcusage(): string | null {
  if (process.env.CCUSAGE_BIN) return process.env.CCUSAGE_BIN;
  for (const dir of (process.env.PATH ?? "").split(delimiter)) if (existsSync(join(dir, "ccusage"))) return join(dir, "ccusage");
  return null;
}

const home = mkdtempSync(join(tmpdir(), "quotabar-bench-cost-"));
const cache = join(home, ".cache");
const env = { PATH: process.env.PATH, HOME: home, TZ: "UTC", XDG_CACHE_HOME: cache };
const now = new Date();
try {
  const claude = await writeClaudeLogCorpus(join(home, ".claude", "projects"), { files: FILES, lines: LINES, now });
  const codexBytes = writeCodexLogCorpus(join(home, ".codex"), Math.ceil(FILES / 2), LINES / 4, now);
  const mb = (claude.bytes + codexBytes) / 1e6;
  console.log(
    `corpus: ${FILES} Claude Code files x ${LINES} lines and ${Math.ceil(FILES / 2)} Codex rollouts, ${mb.toFixed(0)} MB (${cpus().length} CPUs)`,
  );

  const naive: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const started = process.hrtime.bigint();
    naivePass([join(home, ".claude"), join(home, ".codex")]);
    naive.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const args = [BIN, "cost", "--json", "--since", "2000-01-01"];
  const cold: number[] = [];
  const warm: number[] = [];
  const empty: number[] = [];
  const theirs: number[] = [];
  const emptyHome = mkdtempSync(join(tmpdir(), "quotabar-bench-empty-"));
  const ccusage = findCcusage();
  let total = "";
  // quotabar's runs and ccusage's alternate: a machine whose speed drifts (a shared host) moves both alike
  for (let r = 0; r < RUNS; r++) {
    // the index only: the code caches (the plain path's in the cache dir, Node's in the temp dir) stay, as after any earlier run
    rmSync(join(cache, "quotabar", "cost-logs"), { recursive: true, force: true });
    const run = await timed(process.execPath, args, env);
    cold.push(run.ms);
    total = JSON.parse(run.stdout).total.costUsd.toFixed(2);
    warm.push((await timed(process.execPath, args, env)).ms);
    empty.push((await timed(process.execPath, args, { ...env, HOME: emptyHome, XDG_CACHE_HOME: join(emptyHome, "c") })).ms);
    if (!ccusage) continue;
    const started = process.hrtime.bigint();
    for (const agent of ["claude", "codex"]) await timed(ccusage, [agent, "daily", "--json", "--offline"], env);
    theirs.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  rmSync(emptyHome, { recursive: true, force: true });
  const line = (name: string, ms: number, extra = "") => console.log(`  ${name.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms${extra}`);
  console.log(`\nquotabar cost, medians of ${RUNS} (each a whole CLI process)`);
  line("naive: read whole, JSON.parse all", median(naive), "   (in this process, no pricing)");
  line("quotabar cost, cold (no index)", median(cold), `   (${((mb / median(cold)) * 1000).toFixed(0)} MB/s, total $${total})`);
  line("quotabar cost, warm", median(warm));
  line("quotabar cost, no logs at all", median(empty));
  const added = median(warm) - median(empty);
  console.log(
    `  warm adds ${added.toFixed(0)} ms to the command's start-up   goal <= ${GOAL_WARM_MS} ms   ${added <= GOAL_WARM_MS ? "ok" : "OVER"}`,
  );
  if (!ccusage) console.log("\nccusage: not installed (on PATH or CCUSAGE_BIN): no comparison");
  else
    line(
      "ccusage claude + codex daily",
      median(theirs),
      `   (quotabar cold is ${(median(theirs) / median(cold)).toFixed(2)}x as fast; goal >= 1.5x)`,
    );
} finally {
  rmSync(home, { recursive: true, force: true });
}
