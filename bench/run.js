#!/usr/bin/env node
// npm run bench: prints numbers, asserts nothing. Needs a build (npm ci runs it).
import { spawnSync } from "node:child_process";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProviderSimulator } from "../dist/test/simulator/simulator.js";

const BIN = join(import.meta.dirname, "..", "bin", "run.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const DELAY_MS = 300;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${ms.toFixed(0).padStart(5)} ms`;

function timeSync(args, env = process.env) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, encoding: "utf8" });
  if (result.status !== 0 && result.status !== 1) throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function timeAsync(args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", () => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, out }));
  });
}

const bare = Array.from({ length: RUNS }, () => timeSync(["-e", "0"]));
const version = Array.from({ length: RUNS }, () => timeSync([BIN, "--version"]));
console.log(`cold start (median of ${RUNS})`);
console.log(`  node -e 0              ${fmt(median(bare))}`);
console.log(`  quotabar --version     ${fmt(median(version))}   (+${(median(version) - median(bare)).toFixed(0)} ms over bare node)`);

const sim = await ProviderSimulator.start({ delayMs: DELAY_MS });
const home = mkdtempSync(join(tmpdir(), "quotabar-bench-"));
try {
  const env = { ...sim.env(), HOME: home, PATH: process.env.PATH };
  const ids = sim.providers.filter((p) => Object.keys(p.env).length > 0).map((p) => p.id);
  const args = [BIN, "--json", ...ids.flatMap((id) => ["-p", id])];
  const walls = [];
  for (let i = 0; i < RUNS; i++) {
    const { ms, out } = await timeAsync(args, env);
    const doc = JSON.parse(out);
    if (!doc.providers.every((p) => p.ok)) throw new Error(`a provider failed: ${out}`);
    walls.push(ms);
  }
  const requests = sim.requests.length / RUNS;
  console.log(`\nquotabar --json over ${ids.length} providers (${ids.join(", ")}), every upstream delayed ${DELAY_MS} ms`);
  console.log(`  wall time (median)     ${fmt(median(walls))}   (${requests.toFixed(1)} upstream requests per run)`);
  console.log(
    `  minus start-up         ${fmt(median(walls) - median(version))}   (a serial run would need >= ${(requests * DELAY_MS).toFixed(0)} ms)`,
  );
  const used = process.memoryUsage();
  console.log(`\nbench process RSS        ${(used.rss / 1048576).toFixed(1)} MiB`);
} finally {
  await sim.stop();
  rmSync(home, { recursive: true, force: true });
}
