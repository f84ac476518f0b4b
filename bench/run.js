#!/usr/bin/env node
// npm run bench: how fast quotabar starts, refreshes, and how small it stays. Prints figures next to
// their goals (bench/README.md says what each one means); asserts nothing, exits 0 unless the bench
// itself broke. Needs a build (npm ci and npm run build make one).
//
// Honest by construction: every figure is compared with its baseline measured in the same run, the
// commands compared are alternated (A B A B, the order rotating each round) after warm-up rounds,
// and median / min / max are printed. Memory and CPU are the quotabar processes' own (reported from
// inside them by bench/rusage.mjs), never the bench's.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, cpus, tmpdir, totalmem } from "node:os";
import { delimiter, join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin", "run.cjs");
const RUSAGE = join(import.meta.dirname, "rusage.mjs");
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const WARMUP = 2;
const DELAY_MS = 300;
const CONCURRENT = 50;
const REFRESHES = Number(process.env.BENCH_REFRESHES ?? 1000);

if (!existsSync(join(ROOT, "dist", "index.js")) || !existsSync(join(ROOT, "oclif.manifest.json"))) {
  console.error("bench: no build; run `npm run build` first");
  process.exit(2);
}
const { ProviderSimulator } = await import("../dist/simulator/server.js");
const { PROVIDER_IDS } = await import("../dist/index.js");

// ---------------------------------------------------------------------------------------------
// measuring

/** One process: wall time from spawn to exit, its output, and (with `rusage`) its own peak RSS and CPU. */
function run(command, args, { env = process.env, rusage = false } = {}) {
  const argv = rusage ? ["--import", RUSAGE, ...args] : args;
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, argv, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe", "pipe"] });
    const out = { stdout: "", stderr: "", fd3: "" };
    child.stdout.on("data", (d) => (out.stdout += d));
    child.stderr.on("data", (d) => (out.stderr += d));
    child.stdio[3].on("data", (d) => (out.fd3 += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      resolve({ ms, code, ...out, usage: out.fd3 ? JSON.parse(out.fd3) : null });
    });
  });
}

const stats = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted[sorted.length - 1], n: xs.length };
};

/**
 * Runs every case `runs` times, alternated: round r runs the cases in order starting at r, so each
 * one meets every position; `warmup` rounds first, not counted. `check` rejects a bad run.
 */
async function alternate(cases, { runs = RUNS, warmup = WARMUP, before } = {}) {
  const walls = new Map(cases.map((c) => [c.key, []]));
  for (let round = 0; round < warmup + runs; round++) {
    for (let i = 0; i < cases.length; i++) {
      const c = cases[(round + i) % cases.length];
      await before?.(c);
      const result = await run(c.command ?? process.execPath, c.args, { env: c.env });
      c.check?.(result);
      if (result.code !== 0) throw new Error(`${c.label} exited ${result.code}: ${result.stderr.slice(0, 500)}`);
      if (round >= warmup) walls.get(c.key).push(result.ms);
    }
  }
  return new Map([...walls].map(([key, xs]) => [key, stats(xs)]));
}

/** Peak RSS and CPU of a quotabar command, from inside the process (a few runs, median; peak = max). */
async function usageOf(c, times = 3) {
  const rss = [];
  const cpu = [];
  for (let i = 0; i < times; i++) {
    const result = await run(process.execPath, c.args, { env: c.env, rusage: true });
    if (result.code !== 0 || !result.usage) throw new Error(`${c.label} exited ${result.code}: ${result.stderr.slice(0, 500)}`);
    rss.push(result.usage.maxRssKiB / 1024);
    cpu.push(result.usage.cpuMs);
  }
  return { rss: stats(rss), cpu: stats(cpu) };
}

// ---------------------------------------------------------------------------------------------
// printing

const ms = (x) => `${x.toFixed(0)} ms`;
const mib = (x) => `${x.toFixed(1)} MiB`;
const row = (label, s, unit = ms) =>
  `  ${label.padEnd(44)} ${unit(s.median).padStart(9)} ${unit(s.min).padStart(9)} ${unit(s.max).padStart(9)}`;
const verdict = (met) => (met ? "met" : "NOT MET");
const summary = [];
function goal(name, figure, target, met) {
  summary.push({ name, figure, target, met });
  return `${figure.padEnd(22)} goal ${target.padEnd(16)} ${verdict(met)}`;
}
const header = (title) => console.log(`\n${title}\n  ${"".padEnd(44)} ${"median".padStart(9)} ${"min".padStart(9)} ${"max".padStart(9)}`);

const cpu = cpus()[0]?.model.trim() ?? "unknown CPU";
console.log(
  `quotabar bench, ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${availableParallelism()} cores (${cpu}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB; ${RUNS} runs per figure after ${WARMUP} warm-up rounds`,
);
const nodeEnv = Object.keys(process.env).filter((name) => name.startsWith("NODE_"));
if (nodeEnv.length) console.log(`  set here, for every Node process the bench starts (bare Node included): ${nodeEnv.join(", ")}`);
const benchStarted = Date.now();

// ---------------------------------------------------------------------------------------------
// the simulator every network figure runs against, and a throwaway home

const sim = await ProviderSimulator.start();
const home = mkdtempSync(join(tmpdir(), "quotabar-bench-"));
try {
  // every provider the simulator plays over HTTP (the local-only ones, IDE files and vendor CLIs, have no routes)
  const upstreams = sim.providers.filter((p) => PROVIDER_IDS.includes(p.id) && p.routes.length > 0);
  const ids = upstreams.map((p) => p.id);
  await sim.seedHome(home, ids);
  // the machine's PATH and NODE_* (they weigh on bare Node and quotabar alike), nothing else: no real key, config or cache
  const machine = Object.fromEntries(Object.entries(process.env).filter(([name]) => name === "PATH" || name.startsWith("NODE_")));
  const plain = { ...machine, HOME: home, NO_COLOR: "1" };
  const env = { ...plain, ...sim.env() };
  // as a status bar polls it; --max-age 1h so that no snapshot ages past it while the bench runs
  const barArgs = [BIN, "bar", "--format", "waybar", "--max-age", "1h"];
  const waybarLine = (result) => {
    const line = JSON.parse(result.stdout);
    if (typeof line.text !== "string" || typeof line.class !== "string")
      throw new Error(`quotabar bar: not a waybar line: ${result.stdout}`);
  };
  /** The kept snapshots the bar reads: one refresh of the enabled providers (`cache clear` below forgets them). */
  const primeBar = async () => {
    const primed = await run(process.execPath, [...barArgs.slice(0, -2), "--max-age", "0"], { env });
    if (primed.code !== 0) throw new Error(`quotabar bar exited ${primed.code}: ${primed.stderr.slice(0, 500)}`);
  };
  const okDocument = (label) => (result) => {
    const doc = JSON.parse(result.stdout);
    const failed = doc.providers.filter((p) => !p.ok).map((p) => `${p.id}: ${p.error?.message}`);
    if (failed.length) throw new Error(`${label}: a provider failed: ${failed.join("; ")}`);
  };

  // -------------------------------------------------------------------------------------------
  // start-up
  const one = ids.includes("openrouter") ? "openrouter" : ids[0];
  const ccusage = [
    join(ROOT, "node_modules", ".bin", "ccusage"),
    ...(process.env.PATH ?? "").split(delimiter).map((d) => join(d, "ccusage")),
  ].find((p) => existsSync(p));
  const startup = [
    { key: "bare", label: "node -e 0 (bare Node, the baseline)", args: ["-e", "0"], env: plain },
    { key: "version", label: "quotabar --version", args: [BIN, "--version"], env: plain },
    { key: "help", label: "quotabar --help", args: [BIN, "--help"], env: plain },
    { key: "providers", label: "quotabar providers", args: [BIN, "providers"], env: plain },
    // a status bar's poll: every snapshot kept and younger than --max-age (primed below), so no request
    { key: "bar", label: "quotabar bar --format waybar", args: barArgs, env, check: waybarLine },
    { key: "one", label: `quotabar -p ${one} --json (0 ms simulator)`, args: [BIN, "-p", one, "--json"], env, check: okDocument(one) },
    { key: "import", label: 'import("quotabar")', args: ["-e", 'import("quotabar")'], env: plain },
    // as bin/run.cjs loads it: without the engine check (and the semver it requires)
    {
      key: "oclif",
      label: 'require("@oclif/core")',
      args: ["-e", 'require("@oclif/core")'],
      env: { ...plain, OCLIF_DISABLE_ENGINE_WARNING: "1" },
    },
    ...(ccusage ? [{ key: "ccusage", label: "ccusage --version (a peer)", command: ccusage, args: ["--version"], env: plain }] : []),
  ];
  sim.setDelay(0);
  await primeBar();
  const s = await alternate(startup);
  const bare = s.get("bare");
  header("Start-up: whole processes, alternated with bare Node");
  const ratio = (key) => s.get(key).median / bare.median;
  const over = (key) => s.get(key).median - bare.median;
  console.log(row(startup[0].label, bare));
  // this machine's speed moves within minutes: say so when it moved during these rounds
  if (bare.max / bare.min > 1.25)
    console.log(
      `  (bare Node took ${ms(bare.min)} to ${ms(bare.max)} in these rounds: the machine was busy, these figures are less sure than usual)`,
    );
  console.log(
    `${row("quotabar --version", s.get("version"))}   ${goal("--version", `${ratio("version").toFixed(2)}× bare`, "≤ 1.20× bare", ratio("version") <= 1.2)}`,
  );
  console.log(
    `${row("quotabar --help", s.get("help"))}   ${goal("--help", `${ratio("help").toFixed(2)}× bare`, "≤ 1.20× bare", ratio("help") <= 1.2)}`,
  );
  console.log(
    `${row("quotabar providers", s.get("providers"))}   ${goal("providers", `${ratio("providers").toFixed(2)}× bare`, "≤ 2.00× bare", ratio("providers") <= 2)}`,
  );
  console.log(
    `${row("quotabar bar --format waybar (kept snapshots)", s.get("bar"))}   ${goal("bar from the cache", `${ratio("bar").toFixed(2)}× bare`, "≤ 1.50× bare", ratio("bar") <= 1.5)}`,
  );
  sim.requests.length = 0;
  for (let i = 0; i < 3; i++) waybarLine(await run(process.execPath, barArgs, { env }));
  console.log(
    `  ${"  upstream requests of 3 more bar polls".padEnd(44)} ${String(sim.requests.length).padStart(9)}   ${goal("bar: no request", `${sim.requests.length} requests`, "0", sim.requests.length === 0)}`,
  );
  console.log(
    `${row(`quotabar -p ${one} --json (0 ms simulator)`, s.get("one"))}   ${goal(`-p ${one} --json start-up`, `+${ms(over("one"))} over bare`, "≤ +120 ms", over("one") <= 120)}`,
  );
  console.log(
    `${row('import("quotabar")', s.get("import"))}   ${goal("import", `${ratio("import").toFixed(2)}× bare`, "≤ 1.50× bare", ratio("import") <= 1.5)}`,
  );
  console.log(`${row('require("@oclif/core") (oclif alone, for scale)', s.get("oclif"))}   ${ratio("oclif").toFixed(2)}× bare`);
  if (ccusage) console.log(`${row("ccusage --version (a peer, for scale)", s.get("ccusage"))}   ${ratio("ccusage").toFixed(2)}× bare`);
  else console.log("  ccusage --version (a peer, for scale)        not installed, skipped");

  // -------------------------------------------------------------------------------------------
  // refresh-all: the same command at 0 ms and 300 ms upstream delay, alternated
  const refreshOf = (list, label) => ({ args: [BIN, "--json", ...list.flatMap((id) => ["-p", id])], env, check: okDocument(label) });
  const all = refreshOf(ids, "refresh-all");

  // first, the simulator's log of two runs at 300 ms: who asked what, and when. The first run with
  // a credential has nothing kept (`cache clear` before it); later runs reuse what it kept (an
  // access token, a workspace id, limits), as every refresh of a menu bar or a shell prompt does.
  const logRun = async () => {
    sim.setDelay(DELAY_MS);
    sim.requests.length = 0;
    all.check(await run(process.execPath, all.args, { env }));
    return new Map(ids.map((id) => [id, roundTrips(sim.requests.filter((req) => req.providerId === id))]));
  };
  await run(process.execPath, [BIN, "cache", "clear"], { env });
  const firstTrips = await logRun();
  const trips = await logRun();
  const sequences = ids.filter((id) => trips.get(id).length > 1);
  const single = ids.filter((id) => trips.get(id).length === 1);
  const deepest = Math.max(1, ...[...trips.values()].map((t) => t.length));

  const cases = [
    { key: "all 0", delay: 0, ...all },
    { key: "all 300", delay: DELAY_MS, ...all },
    ...(sequences.length && single.length
      ? [
          { key: "single 0", delay: 0, ...refreshOf(single, "refresh, one round trip") },
          { key: "single 300", delay: DELAY_MS, ...refreshOf(single, "refresh, one round trip") },
        ]
      : []),
  ];
  const r = await alternate(cases, {
    before: (c) => {
      sim.setDelay(c.delay);
      sim.requests.length = 0;
    },
  });
  sim.setDelay(0);

  header(`Refresh-all: quotabar --json over the ${ids.length} providers with simulator routes (${ids.join(", ")})`);
  const extraOf = (name) => r.get(`${name} 300`).median - r.get(`${name} 0`).median;
  const budget = `≤ +${DELAY_MS + 30} ms`;
  console.log(row("every upstream answering at once (0 ms)", r.get("all 0")));
  console.log(
    `${row(`every upstream delayed ${DELAY_MS} ms`, r.get("all 300"))}   ${goal("refresh-all", `+${ms(extraOf("all"))} over 0 ms`, budget, extraOf("all") <= DELAY_MS + 30)}`,
  );
  if (cases.length > 2) {
    console.log(`  the ${single.length} providers that need one round trip (all but ${sequences.join(", ")}):`);
    console.log(row("  at 0 ms", r.get("single 0")));
    console.log(
      `${row(`  at ${DELAY_MS} ms`, r.get("single 300"))}   ${goal("refresh, one round trip", `+${ms(extraOf("single"))} over 0 ms`, budget, extraOf("single") <= DELAY_MS + 30)}`,
    );
  }

  console.log(
    `\n  upstream requests per provider at ${DELAY_MS} ms (a round trip starts ≥ ${DELAY_MS * 0.8} ms after the previous one began);`,
  );
  console.log("  the runs above are later runs; where a first run with a credential (nothing kept yet) differs, it is shown below:");
  const shapeOf = (t) => {
    const n = t.reduce((sum, trip) => sum + trip.length, 0);
    return `${String(n).padStart(2)} request${n === 1 ? " " : "s"}  ${t.length} round trip${t.length === 1 ? " " : "s"}  ${t.map(describeTrip).join("  →  ")}`;
  };
  for (const id of ids) {
    const [later, first] = [shapeOf(trips.get(id)), shapeOf(firstTrips.get(id))];
    console.log(`    ${id.padEnd(12)} ${later}`);
    if (first !== later) console.log(`    ${"".padEnd(12)} ${first}   (first run)`);
  }
  const firstSequences = ids.filter((id) => firstTrips.get(id).length > 1);
  if (firstSequences.length) {
    console.log(
      `\n  a first run waits for a sequence in: ${firstSequences.map((id) => `${id} (${firstTrips.get(id).length} round trips)`).join(", ")}; what it learns is kept for the runs after it`,
    );
  }
  if (sequences.length) {
    console.log(
      `\n  sequential (a request that waits for the answer of another): ${sequences.map((id) => `${id} (${trips.get(id).length} round trips)`).join(", ")}`,
    );
    console.log(
      `  so at ${DELAY_MS} ms the refresh of every provider waits at least ${deepest} × ${DELAY_MS} ms = ${deepest * DELAY_MS} ms for its longest sequence (the goal allows ${DELAY_MS + 30} ms more than at 0 ms)`,
    );
  } else console.log("\n  no provider makes a request that waits for another's answer");

  // -------------------------------------------------------------------------------------------
  // memory and CPU of the quotabar processes themselves
  header("Memory and CPU of the quotabar processes (from inside each, 3 runs)");
  const byKey = (key) => startup.find((c) => c.key === key);
  const measured = [
    ["quotabar --version", byKey("version")],
    ["quotabar providers", byKey("providers")],
    ["quotabar bar --format waybar", byKey("bar")],
    [`quotabar -p ${one} --json`, byKey("one")],
    [`quotabar --json, ${ids.length} providers`, { ...all, label: "refresh-all" }],
  ];
  let peakAll = 0;
  let peakBar = 0;
  for (const [label, c] of measured) {
    if (c.key === "bar") await primeBar();
    const u = await usageOf(c);
    if (c === measured.at(-1)[1]) peakAll = u.rss.max;
    if (c.key === "bar") peakBar = u.rss.max;
    console.log(`${row(`${label}: peak RSS`, u.rss, mib)}`);
    console.log(`${row(`${label}: CPU time`, u.cpu)}`);
  }
  console.log(
    `  ${"peak RSS of quotabar bar (kept snapshots)".padEnd(44)} ${mib(peakBar).padStart(9)}   ${goal("bar peak RSS", mib(peakBar), "≤ 60 MiB", peakBar <= 60)}`,
  );
  console.log(
    `  ${"peak RSS of quotabar --json, all providers".padEnd(44)} ${mib(peakAll).padStart(9)}   ${goal("peak RSS", mib(peakAll), "≤ 80 MiB", peakAll <= 80)}`,
  );

  // -------------------------------------------------------------------------------------------
  // 50 concurrent processes
  const started = process.hrtime.bigint();
  const crowd = await Promise.all(Array.from({ length: CONCURRENT }, () => run(process.execPath, all.args, { env, rusage: true })));
  const crowdWall = Number(process.hrtime.bigint() - started) / 1e6;
  const failures = crowd.map(problemOf).filter((problem) => problem !== null);
  const crowdOk = CONCURRENT - failures.length;
  header(`${CONCURRENT} concurrent quotabar --json (${ids.length} providers each, 0 ms simulator)`);
  console.log(row("wall time of each process", stats(crowd.map((x) => x.ms))));
  console.log(row("CPU time of each process", stats(crowd.filter((x) => x.usage).map((x) => x.usage.cpuMs))));
  console.log(row("peak RSS of each process", stats(crowd.filter((x) => x.usage).map((x) => x.usage.maxRssKiB / 1024)), mib));
  console.log(`  ${"all of them, first start to last exit".padEnd(44)} ${ms(crowdWall).padStart(9)}`);
  console.log(
    `  ${"succeeded".padEnd(44)} ${`${crowdOk}/${CONCURRENT}`.padStart(9)}   ${goal("50 concurrent", `${crowdOk}/${CONCURRENT} succeeded`, "all", crowdOk === CONCURRENT)}`,
  );
  for (const [problem, n] of counted(failures)) console.log(`    ${n} × ${problem}`);

  // -------------------------------------------------------------------------------------------
  // a long-lived embedding
  const warmup = REFRESHES / 5;
  const embedArgs = {
    env,
    providers: ids,
    refreshes: REFRESHES,
    sampleEvery: REFRESHES / 10,
    warmup,
    cacheDir: join(home, "embed-cache"),
    snapshotDir: home,
  };
  const embed = await run(process.execPath, ["--expose-gc", join(import.meta.dirname, "embed.mjs"), JSON.stringify(embedArgs)], {
    env: plain,
    rusage: true,
  });
  if (embed.code !== 0) throw new Error(`embedding exited ${embed.code}: ${embed.stderr.slice(0, 500)}`);
  const e = JSON.parse(embed.stdout);
  e.before = census(e.before);
  e.after = census(e.after);
  const signed = (x) => `${x >= 0 ? "+" : ""}${x.toFixed(2)} MiB`;
  const values = (e.after.valueBytes - e.before.valueBytes) / 2 ** 20;
  const code = (e.after.otherBytes - e.before.otherBytes) / 2 ** 20;
  const count = e.after.values - e.before.values;
  console.log(
    `\nA long-lived embedding: createQuotabar() once, ${REFRESHES} refreshes of the ${ids.length} providers (0 ms simulator), one process`,
  );
  console.log(
    `  heap in use after a full GC, by refresh: ${e.samples.map((x) => `${x.refresh}: ${(x.heapUsed / 2 ** 20).toFixed(1)}`).join(", ")} MiB`,
  );
  const early = e.samples.filter((x) => x.refresh > 0 && x.refresh <= warmup);
  console.log(
    `  heap committed / RSS: ${early.map((x) => `${(x.heapTotal / 2 ** 20).toFixed(0)} / ${(x.rss / 2 ** 20).toFixed(0)} MiB at refresh ${x.refresh}`).join(", ")}`,
  );
  console.log(
    "  (a busy loop never idles, so V8 keeps its young generation at full size and freed pages committed; later samples hold the heap snapshots' own memory)",
  );
  console.log(`  ${e.msPerRefresh.toFixed(1)} ms per refresh; ${e.failures} provider failures`);
  console.log(`  heap snapshots after refresh ${warmup} and after refresh ${REFRESHES} differ by:`);
  console.log(
    `    ${"JS values (objects, strings, closures...)".padEnd(42)} ${signed(values).padStart(9)}   ${goal("flat heap", `${signed(values)} (${count >= 0 ? "+" : ""}${count} values)`, "flat, ≤ +1 MiB", values <= 1 && e.failures === 0)}`,
  );
  console.log(
    `    ${"compiled code and V8's metadata for it".padEnd(42)} ${signed(code).padStart(9)}   (V8 optimizing more functions as they run hot)`,
  );

  // -------------------------------------------------------------------------------------------
  // quotabar serve: every provider on its own loop, as fast as it goes, scraped along the way
  const served = [...PROVIDER_IDS];
  await sim.seedHome(home);
  const serveArgs = {
    env,
    providers: served,
    cycles: REFRESHES,
    sampleEvery: REFRESHES / 40, // 16 samples in each half compared below
    warmup: REFRESHES / 5,
    intervalMs: 20,
    valuesWindow: REFRESHES / 5,
    snapshotDir: home,
  };
  const serving = await run(process.execPath, ["--expose-gc", join(import.meta.dirname, "serve.mjs"), JSON.stringify(serveArgs)], {
    env: plain,
    rusage: true,
  });
  if (serving.code !== 0) throw new Error(`serve exited ${serving.code}: ${serving.stderr.slice(0, 500)}`);
  const v = JSON.parse(serving.stdout);
  // RSS after a full GC still moves by ±15 MiB from one sample to the next (pages V8 and malloc keep
  // or give back): growth is the median of the later half of the samples after the warm-up against
  // the median of the earlier half, not one sample against another (with 4 samples a half, one step
  // decided the figure: +28 MiB once, the JS values flat)
  const warmSamples = v.samples.filter((x) => x.cycle >= serveArgs.warmup);
  const half = Math.floor(warmSamples.length / 2);
  const [earlier, later] = [warmSamples.slice(0, half), warmSamples.slice(warmSamples.length - half)];
  const medianRss = (xs) => stats(xs.map((x) => x.rss)).median / 2 ** 20;
  const rssGrowth = medianRss(later) - medianRss(earlier);
  const span = (xs) => `${xs[0].cycle}–${xs.at(-1).cycle}`;
  const [valuesBefore, valuesAfter] = [census(v.before.file), census(v.after.file)];
  const valuesGrowth = (valuesAfter.valueBytes - valuesBefore.valueBytes) / 2 ** 20;
  const failing = served.filter((id) => !ids.includes(id));
  console.log(
    `\nquotabar serve, ${v.providers} providers on their own loops (interval 20 ms, 0 ms simulator), /metrics and /usage scraped at each cycle, one process`,
  );
  if (failing.length)
    console.log(`  (${failing.join(", ")}: no simulated upstream, read from the throwaway home or failing as on a machine without them)`);
  console.log(
    `  RSS / heap after a full GC, by cycle: ${v.samples
      .filter((x) => x.cycle % (REFRESHES / 10) === 0)
      .map((x) => `${x.cycle}: ${(x.rss / 2 ** 20).toFixed(0)} / ${(x.heapUsed / 2 ** 20).toFixed(1)}`)
      .join(", ")} MiB`,
  );
  const signedMib = (x) => `${x >= 0 ? "+" : ""}${x.toFixed(1)} MiB`;
  console.log(
    `  ${`RSS, median of cycles ${span(earlier)} to ${span(later)}`.padEnd(44)} ${signedMib(rssGrowth).padStart(9)}   ${goal("serve RSS flat", signedMib(rssGrowth), "≤ +8 MiB", rssGrowth <= 8)}`,
  );
  console.log(
    `  ${`JS values, cycle ${v.before.cycle} to ${v.after.cycle}`.padEnd(44)} ${signed(valuesGrowth).padStart(9)}   ${goal("serve heap flat", `${signed(valuesGrowth)} (${valuesAfter.values - valuesBefore.values >= 0 ? "+" : ""}${valuesAfter.values - valuesBefore.values} values)`, "flat, ≤ +1 MiB", valuesGrowth <= 1)}`,
  );
  console.log(
    `  ${`CPU per cycle (${v.providers} provider refreshes)`.padEnd(44)} ${ms((v.cpuMs / v.refreshes) * v.providers).padStart(9)}   (${(v.cpuMs / v.refreshes).toFixed(1)} ms per provider refresh, ${v.refreshes} of them after the warm-up; ${v.scraped} scrapes; peak RSS ${mib(serving.usage.maxRssKiB / 1024)}, the heap snapshots included)`,
  );

  // -------------------------------------------------------------------------------------------
  // Raycast: the menu-bar command's first render from the cache, in the Raycast test harness
  const raycastReady = existsSync(join(ROOT, "raycast", "node_modules", "react"));
  console.log("\nRaycast menu-bar command, in its test harness (raycast/test/menu-bar-first-render.test.tsx)");
  if (!raycastReady) console.log("  skipped: raycast/node_modules is missing (cd raycast && npm ci)");
  else {
    const vitest = join(ROOT, "node_modules", "vitest", "vitest.mjs");
    const out = await run(
      process.execPath,
      [vitest, "run", "--config", "raycast/vitest.config.ts", "raycast/test/menu-bar-first-render.test.tsx"],
      {
        env: { ...process.env, QUOTABAR_BENCH_FIRST_RENDER: "1", NO_COLOR: "1" },
      },
    );
    const line = `${out.stdout}\n${out.stderr}`.split("\n").find((l) => l.startsWith("BENCH {"));
    if (out.code !== 0 || !line) console.log(`  failed (exit ${out.code}):\n${`${out.stdout}\n${out.stderr}`.trim().slice(-1500)}`);
    else {
      const f = JSON.parse(line.slice("BENCH ".length));
      console.log(`  ${"".padEnd(44)} ${"median".padStart(9)} ${"min".padStart(9)} ${"max".padStart(9)}`);
      console.log(row("first render from the cached document", stats(f.firstRenderMs)));
      console.log(row("the refreshed document rendered (0 ms simulator)", stats(f.refreshedMs)));
      console.log(
        `  ${"the same, first launch (lazy modules loading)".padEnd(44)} ${ms(f.coldFirstRenderMs).padStart(9)} (cached)  ${ms(f.coldRefreshedMs)} (refreshed)`,
      );
      console.log(
        `  ${"upstream requests before the first render".padEnd(44)} ${String(f.requestsBeforeFirstRender).padStart(9)}   ${goal("Raycast cache first", `${f.requestsBeforeFirstRender} requests`, "0 (cache first)", f.requestsBeforeFirstRender === 0)}`,
      );
    }
  }

  console.log(
    `\n${summary.filter((x) => x.met).length} of ${summary.length} goals met; not met: ${
      summary
        .filter((x) => !x.met)
        .map((x) => `${x.name} (${x.figure}, goal ${x.target})`)
        .join("; ") || "none"
    }`,
  );
  // the cost scan's own figures (bench/cost-logs.ts, also `npm run bench:cost`): against a naive pass and ccusage
  console.log("");
  await new Promise((resolve) =>
    spawn(process.execPath, [join(ROOT, "node_modules", "vite-node", "vite-node.mjs"), join(ROOT, "bench", "cost-logs.ts")], {
      cwd: ROOT,
      stdio: "inherit",
    }).on("close", resolve),
  );
  console.log(`bench took ${((Date.now() - benchStarted) / 1000).toFixed(0)} s`);
} finally {
  await sim.stop();
  rmSync(home, { recursive: true, force: true });
}

/** A heap snapshot file: its JS values (objects, strings, closures, arrays...: where a leak shows) and everything else (code, shapes, V8's own). */
function census(file) {
  const snapshot = JSON.parse(readFileSync(file, "utf8"));
  rmSync(file);
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const [typeAt, sizeAt, width] = [fields.indexOf("type"), fields.indexOf("self_size"), fields.length];
  const values = new Set([
    "object",
    "closure",
    "array",
    "string",
    "concatenated string",
    "sliced string",
    "regexp",
    "number",
    "symbol",
    "bigint",
    "native",
  ]);
  const result = { values: 0, valueBytes: 0, otherBytes: 0 };
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const size = snapshot.nodes[i + sizeAt];
    if (values.has(types[snapshot.nodes[i + typeAt]])) {
      result.values++;
      result.valueBytes += size;
    } else result.otherBytes += size;
  }
  return result;
}

/** Why a quotabar --json run did not fully succeed, or null. */
function problemOf(result) {
  try {
    const doc = JSON.parse(result.stdout);
    const failed = doc.providers.filter((p) => !p.ok).map((p) => `${p.id}: ${p.error?.code} ${p.error?.message}`);
    if (result.code === 0 && failed.length === 0) return null;
    return `exit ${result.code}: ${failed.join("; ")}`;
  } catch {
    return `exit ${result.code}: ${result.stderr.trim().split("\n")[0] || "no output"}`;
  }
}

function counted(items) {
  const counts = new Map();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

/** A provider's requests grouped into round trips: a request that arrives ≥ 0.8 × the delay after the current trip began waited for an answer. */
function roundTrips(requests) {
  const trips = [];
  for (const req of [...requests].sort((a, b) => a.receivedAt - b.receivedAt)) {
    const current = trips.at(-1);
    if (current && req.receivedAt - current[0].receivedAt < DELAY_MS * 0.8) current.push(req);
    else trips.push([req]);
  }
  return trips;
}

/** "GET /a ×2, POST /b": the requests of one round trip. */
function describeTrip(requests) {
  const counts = new Map();
  for (const req of requests) {
    const name = `${req.method} ${req.path.length > 40 ? `${req.path.slice(0, 39)}…` : req.path}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(", ");
}
