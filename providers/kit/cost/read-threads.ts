import { existsSync } from "node:fs";
import type { MessagePort, Worker } from "node:worker_threads";
import type { FoundFile } from "../line-files.js";
import { knownText, recordText, type FileRecord } from "./log-index.js";
import { readLogFile, type FileRead } from "./log-read.js";
import { prices, usePrices, type Agent, type PriceTable } from "./prices.js";

/**
 * Reads a scan's changed log files, on this thread and, when there is much to read, on a helper
 * thread as well: parsing every request line is most of a cold scan, and a second core halves it.
 * Each thread claims the next file not claimed in its own order, so neither waits while the other
 * has work: this thread reads the first (largest) agent's files, the helper those and then the
 * others' (and this thread with it when much of them is left). So this thread's code is compiled
 * for one agent's lines (V8 compiles the hot code once per thread, and again where a new kind of
 * line unsettles it: 20 ms less a cold run), and it makes the first agent's index while the helper
 * reads the rest. The helper runs read-helper.ts (built as one file: a checkout's TypeScript
 * sources read on one thread), with the prices in use; it only reads and parses, and sends each
 * file's record back. If it fails to start or dies, what it took and did not answer is read here.
 */

export interface ReadJob {
  agent: Agent;
  file: FoundFile;
  /** The file's record from an earlier run: read on from where it stopped when the file only grew. */
  old: FileRecord | null;
  /** Filled in: the new record, or why there is none. */
  read?: FileRead;
  failed?: "stopped" | "unreadable";
  /** Told when the job is done (read or failed), on this thread. */
  done?: () => void;
}

export interface ReadOptions {
  signal?: AbortSignal;
  /** Told after each file: how many of how many. */
  onProgress?: (done: number, total: number) => void;
  /** Whether a helper thread may be started (a CLI process; a library's host may not want one). */
  helperThread?: boolean;
}

/** Files read at once here (the reads block: more would only take turns). */
const PARALLEL_FILES = 2;
/** Below this much to read, starting a thread (~25 ms, on the other core) is not worth it. */
const HELPER_BYTES = 8 << 20;
/**
 * This thread reads the other agents' files too when more than this is left of them (~100 ms of
 * the helper's reading) once the first agent's are all taken: less, and the helper reads them alone
 * while this thread makes the first agent's index, and this thread's code is not compiled for them.
 */
const LATE_JOIN_BYTES = 32 << 20;
const bytesOf = (job: ReadJob) => job.file.size - (job.old?.offset ?? 0);
export const HELPER_MARK = "quotabarLogReader";

/** What the helper is given: every job (it claims each one not claimed, as this thread does), the prices, the shared flags. */
export interface HelperData {
  [HELPER_MARK]: true;
  jobs: Pick<ReadJob, "agent" | "file" | "old">[];
  prices: PriceTable;
  /** One flag per job, 1 once a thread claimed it; then one more, 1 once the reading must stop. */
  shared: SharedArrayBuffer;
}
type Reply = { job: number; read: FileRead; text: string } | { job: number; failed: true };

/** Claims job `index` for the calling thread: true when no thread had (one compare-and-swap, both threads alike). */
const claim = (claims: Int32Array, index: number): boolean => Atomics.compareExchange(claims, index, 0, 1) === 0;

/**
 * Reads the jobs, taken in the order given. Each thread claims a job with an atomic
 * compare-and-swap on a shared flag, so the helper never waits for this thread (busy parsing, or
 * making an index) to hand it work; what it reads is sent back and taken in at this thread's next turn.
 */
export async function readJobs(jobs: ReadJob[], options: ReadOptions = {}): Promise<void> {
  // claims[i]: 1 once a thread took job i; claims[jobs.length]: 1 once the reading must stop
  const claims = new Int32Array(new SharedArrayBuffer(4 * (jobs.length + 1)));
  let count = 0;
  const settled = new Uint8Array(jobs.length);
  const finished = (index: number) => {
    settled[index] = 1;
    count++; // not inside onProgress?.(...): its arguments are not evaluated when there is none
    options.onProgress?.(count, jobs.length);
    (jobs[index] as ReadJob).done?.();
  };
  const readHere = async (index: number) => {
    const job = jobs[index] as ReadJob;
    try {
      options.signal?.throwIfAborted();
      job.read = await readLogFile(job.agent, job.file, job.old, options.signal);
      recordText(job.read.record); // made now, while the helper is still reading too
    } catch {
      // stopped by the budget, or gone or locked since the walk
      job.failed = options.signal?.aborted ? "stopped" : "unreadable";
    }
    finished(index);
  };
  const toRead = jobs.reduce((n, job) => n + bytesOf(job), 0);
  const taken = (reply: Reply) => {
    if (settled[reply.job]) return;
    const job = jobs[reply.job] as ReadJob;
    if ("read" in reply) {
      knownText(reply.read.record, reply.text);
      job.read = reply.read;
    } else job.failed = "unreadable";
    finished(reply.job);
  };
  const helper =
    options.helperThread && toRead >= HELPER_BYTES
      ? await startHelper(
          {
            [HELPER_MARK]: true,
            jobs: jobs.map(({ agent, file, old }) => ({ agent, file, old })),
            prices: prices(),
            shared: claims.buffer as SharedArrayBuffer,
          },
          taken,
        )
      : null;
  // with a helper, this thread reads the first agent's files, and the others' only when much of them is left to the helper
  const first = (index: number) => !helper || (jobs[index] as ReadJob).agent === jobs[0]?.agent;
  const order = jobs.flatMap((_, index) => (first(index) ? [index] : []));
  let joined = !helper;
  let cursor = 0;
  const lane = async () => {
    for (;;) {
      if (cursor === order.length && !joined) {
        joined = true;
        const rest = jobs.flatMap((_, index) => (first(index) || Atomics.load(claims, index) === 1 ? [] : [index]));
        if (rest.reduce((n, index) => n + bytesOf(jobs[index] as ReadJob), 0) > LATE_JOIN_BYTES) order.push(...rest);
      }
      if (cursor === order.length) return;
      const index = order[cursor++] as number;
      if (claim(claims, index)) await readHere(index);
    }
  };
  const stop = () => {
    Atomics.store(claims, jobs.length, 1);
    helper?.end();
  };
  if (helper) options.signal?.addEventListener("abort", stop, { once: true });
  try {
    await Promise.all(Array.from({ length: PARALLEL_FILES }, lane));
    if (!helper) return;
    // every job is taken: the helper's come in as it answers, until it has answered them all or ended
    await helper.idle(() => count === jobs.length);
    // what it took and did not answer (it failed, or the reading was stopped)
    for (let index = 0; index < jobs.length; index++) {
      if (settled[index]) continue;
      if (!options.signal?.aborted) await readHere(index);
      else {
        (jobs[index] as ReadJob).failed = "stopped";
        finished(index);
      }
    }
  } finally {
    options.signal?.removeEventListener("abort", stop);
    helper?.end();
  }
}

interface Helper {
  /** Resolves once `done()` holds after a reply, or the helper ended. */
  idle(done: () => boolean): Promise<void>;
  end(): void;
}

/**
 * A helper thread running read-helper.ts, built as one file beside this module; null where there is
 * none (the sources, not a build). node:worker_threads loads only here (1.5 MiB a process otherwise).
 */
async function startHelper(data: HelperData, taken: (reply: Reply) => void): Promise<Helper | null> {
  const script = new URL("read-helper.cjs", import.meta.url);
  let worker: Worker;
  try {
    if (!existsSync(script)) return null;
    const threads = await import("node:worker_threads");
    worker = new threads.Worker(script, { workerData: data, stdout: true, stderr: true });
  } catch {
    return null;
  }
  // not unref'd: once this thread has read its part, the helper's answers are all that keeps the process alive (unref'd, a CLI run ended there, with no output)
  let ended = false;
  let waiting: { resolve: () => void; done: () => boolean } | null = null;
  const wake = () => {
    if (!waiting || !(ended || waiting.done())) return;
    const { resolve } = waiting;
    waiting = null;
    resolve();
  };
  const end = () => {
    if (ended) return;
    ended = true;
    void worker.terminate();
    wake();
  };
  worker.on("message", (reply: Reply) => {
    taken(reply);
    wake();
  });
  worker.on("error", end);
  worker.on("exit", end);
  return {
    idle: (done) =>
      new Promise<void>((resolve) => {
        waiting = { resolve, done };
        wake();
      }),
    end,
  };
}

/** The helper's side (read-helper.ts): claims each job not claimed, in order, reading with the prices it was given. */
export async function serveReads(port: MessagePort, data: HelperData): Promise<void> {
  usePrices(data.prices);
  const claims = new Int32Array(data.shared);
  for (let index = 0; index < data.jobs.length && Atomics.load(claims, data.jobs.length) === 0; index++) {
    if (!claim(claims, index)) continue;
    const { agent, file, old } = data.jobs[index] as HelperData["jobs"][number];
    try {
      const read = await readLogFile(agent, file, old);
      // its JSON made here too (the main thread only joins the texts), its numbers moved, not copied
      const { sums, keyed } = read.record;
      port.postMessage({ job: index, read, text: recordText(read.record) } satisfies Reply, [
        sums.buffer as ArrayBuffer,
        keyed.buffer as ArrayBuffer,
      ]);
    } catch {
      port.postMessage({ job: index, failed: true } satisfies Reply);
    }
  }
}
