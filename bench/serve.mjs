// quotabar serve in a long run, started by bench/run.js in its own process (node --expose-gc): the
// serve loop of the given providers against the simulator whose environment it is handed, refreshing
// every `intervalMs` (or as fast as it can), until every provider has had `cycles` refreshes; /metrics and
// /usage are scraped along the way. Prints one JSON line:
// - the heap after a full GC and the RSS every `sampleEvery` cycles;
// - the CPU time (user + system) from the end of the warm-up to the end, and the refreshes in it;
// - two heap snapshots, at the end and `valuesWindow` cycles later (files: bench/run.js compares
//   their JS values), taken after the RSS figures so that their own memory is not in them.
import { request } from "node:http";
import { join } from "node:path";
import { writeHeapSnapshot } from "node:v8";

const { env, providers, cycles, sampleEvery, warmup, intervalMs, valuesWindow, snapshotDir } = JSON.parse(process.argv[2]);
const { startServe } = await import("../dist/oclif-cli/serve/start-serve.js");

const gc = globalThis.gc;
if (typeof gc !== "function") throw new Error("run with --expose-gc");
const get = (url) =>
  new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("error", reject);
    req.end();
  });

let logged = 0;
const handle = await startServe({
  env,
  host: "127.0.0.1",
  port: 0,
  intervalMs,
  token: null,
  providers,
  log: (line) => {
    logged++;
    if (logged <= 5) process.stderr.write(`${line}\n`);
  },
});
const cycle = () => Math.min(...handle.providers.map((id) => handle.state.get(id)?.refreshes ?? 0));
const total = () => handle.providers.reduce((sum, id) => sum + (handle.state.get(id)?.refreshes ?? 0), 0);

const samples = [];
let scraped = 0;
let cpuAtWarmup = null;
let refreshesAtWarmup = 0;
let seen = -1;
/** Runs the loop, scraping after each cycle, until `until` cycles; `each(done)` after the scrapes. */
async function runUntil(until, each = () => undefined) {
  for (let done = cycle(); done < until; done = cycle()) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (done === seen) continue;
    // what a scraper and a dashboard ask meanwhile: never a request upstream
    for (const path of ["/metrics", "/usage"]) if ((await get(`${handle.url}${path}`)) === 200) scraped++;
    each(done);
    seen = done;
  }
}
const fullGc = () => {
  gc();
  gc();
};
await runUntil(cycles, (done) => {
  if (seen < 0 || Math.floor(done / sampleEvery) > Math.floor(seen / sampleEvery)) {
    fullGc();
    const { heapUsed, rss } = process.memoryUsage();
    samples.push({ cycle: done, heapUsed, rss });
  }
  if (cpuAtWarmup === null && done >= warmup) {
    cpuAtWarmup = process.cpuUsage();
    refreshesAtWarmup = total();
  }
});
fullGc();
samples.push({ cycle: cycle(), heapUsed: process.memoryUsage().heapUsed, rss: process.memoryUsage().rss });
const cpu = process.cpuUsage(cpuAtWarmup);
const refreshes = total() - refreshesAtWarmup;
// the JS values: a heap snapshot now and one `valuesWindow` cycles later
fullGc();
const before = { cycle: cycle(), file: writeHeapSnapshot(join(snapshotDir, "serve-before.heapsnapshot")) };
await runUntil(before.cycle + valuesWindow);
fullGc();
const after = { cycle: cycle(), file: writeHeapSnapshot(join(snapshotDir, "serve-after.heapsnapshot")) };
await handle.stop();
const result = {
  samples,
  logged,
  scraped,
  providers: handle.providers.length,
  refreshes,
  cpuMs: (cpu.user + cpu.system) / 1000,
  before,
  after,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
