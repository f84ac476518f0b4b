// A long-lived embedding, run by bench/run.js in its own process (node --expose-gc): one
// createQuotabar(), then `refreshes` refreshes of the given providers against the simulator whose
// environment it is handed. Prints one JSON line:
// - the heap after a full GC every `sampleEvery` refreshes, and the RSS;
// - a heap snapshot after the warm-up and one at the end (files: bench/run.js compares them);
// - the time per refresh.
import { performance } from "node:perf_hooks";
import { join } from "node:path";
import { writeHeapSnapshot } from "node:v8";

const { env, providers, refreshes, sampleEvery, warmup, cacheDir, snapshotDir } = JSON.parse(process.argv[2]);
const { createQuotabar } = await import("../dist/index.js");

const gc = globalThis.gc;
if (typeof gc !== "function") throw new Error("run with --expose-gc");
const fullGc = () => {
  gc();
  gc();
};
const sample = (refresh) => {
  fullGc();
  const { heapUsed, heapTotal, rss } = process.memoryUsage();
  return { refresh, heapUsed, heapTotal, rss };
};

/** A heap snapshot file, read by bench/run.js (parsing it here would swell this process's memory). */
const snapshot = (name) => {
  fullGc();
  return writeHeapSnapshot(join(snapshotDir, name));
};

const qb = createQuotabar({ env, cacheDir });
const samples = [sample(0)];
let failures = 0;
let busy = 0;
let before;
for (let i = 1; i <= refreshes; i++) {
  const started = performance.now();
  const doc = await qb.usage({ providers });
  busy += performance.now() - started;
  failures += doc.providers.filter((p) => !p.ok).length;
  if (i % sampleEvery === 0) samples.push(sample(i));
  if (i === warmup) before = snapshot("warm.heapsnapshot");
}
const after = snapshot("end.heapsnapshot");
process.stdout.write(`${JSON.stringify({ samples, failures, msPerRefresh: busy / refreshes, before, after })}\n`);
