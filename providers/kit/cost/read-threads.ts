import { existsSync } from "node:fs";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import type { FoundFile } from "../line-files.js";
import { knownText, recordText, type FileRecord } from "./log-index.js";
import { readLogFile, type FileRead } from "./log-read.js";
import { prices, usePrices, type Agent, type PriceTable } from "./prices.js";

/**
 * Reads a scan's changed log files, on this thread and, when there is much to read, on a helper
 * thread as well: parsing every request line is most of a cold scan, and a second core halves it.
 * Both take files from one queue, so neither waits while the other has work. The helper runs this
 * same module (built as one file: a checkout's TypeScript sources read on one thread), with the
 * prices in use; it only reads and parses, and sends each file's record back. If it fails to
 * start or dies, what it held is read here.
 */

export interface ReadJob {
  agent: Agent;
  file: FoundFile;
  /** The file's record from an earlier run: read on from where it stopped when the file only grew. */
  old: FileRecord | null;
  /** Filled in: the new record, or why there is none. */
  read?: FileRead;
  failed?: "stopped" | "unreadable";
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
/** Sent to the helper ahead of what it reads (at least two files), so it never waits for this thread's next turn. */
const HELPER_AHEAD_BYTES = 8 << 20;
/** Below this much to read, starting a thread (~25 ms, on the other core) is not worth it. */
const HELPER_BYTES = 8 << 20;
const HELPER_MARK = "quotabarLogReader";

interface Request {
  id: number;
  agent: Agent;
  file: FoundFile;
  old: FileRecord | null;
}
type Reply = { id: number; read: FileRead; text: string } | { id: number; failed: true };

export async function readJobs(jobs: ReadJob[], options: ReadOptions = {}): Promise<void> {
  // the largest first: the last files read, on either thread, are small ones
  const queue = [...jobs].sort((a, b) => b.file.size - a.file.size);
  let count = 0;
  const finished = () => options.onProgress?.(++count, jobs.length);
  const readHere = async (job: ReadJob) => {
    try {
      options.signal?.throwIfAborted();
      job.read = await readLogFile(job.agent, job.file, job.old, options.signal);
      recordText(job.read.record); // made now, while the helper is still reading too
    } catch {
      // stopped by the budget, or gone or locked since the walk
      job.failed = options.signal?.aborted ? "stopped" : "unreadable";
    }
    finished();
  };
  const lane = async () => {
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) await readHere(job);
  };
  const lanes = Array.from({ length: PARALLEL_FILES }, lane);
  const toRead = jobs.reduce((n, job) => n + job.file.size - (job.old?.offset ?? 0), 0);
  const helper = options.helperThread && toRead >= HELPER_BYTES ? startHelper(options.signal) : null;
  if (helper) {
    // one lane per file the helper holds, as many as keep it HELPER_AHEAD_BYTES ahead
    let ahead = 0;
    const helperLane = async (): Promise<void> => {
      const job = queue.shift();
      if (job === undefined) return;
      ahead += job.file.size;
      if (ahead < HELPER_AHEAD_BYTES && queue.length > 0) lanes.push(helperLane());
      const read = await helper.read(job);
      ahead -= job.file.size;
      if (read === "gone") return readHere(job).then(lane);
      if (typeof read === "string") job.failed = read;
      else job.read = read;
      finished();
      return helperLane();
    };
    lanes.push(helperLane(), helperLane());
  }
  try {
    // lanes are added while they run
    for (let settled = 0; settled < lanes.length; ) settled = (await Promise.all(lanes)).length;
  } finally {
    helper?.stop();
  }
}

interface Helper {
  read(job: ReadJob): Promise<FileRead | "stopped" | "unreadable" | "gone">;
  stop(): void;
}

/** A helper thread running this module, built as one file beside it; null where there is none (the sources, not a build). */
function startHelper(signal?: AbortSignal): Helper | null {
  const script = new URL("read-threads.cjs", import.meta.url);
  let worker: Worker;
  try {
    if (!existsSync(script)) return null;
    worker = new Worker(script, { workerData: { [HELPER_MARK]: true, prices: prices() }, stdout: true, stderr: true });
  } catch {
    return null;
  }
  worker.unref();
  const waiting = new Map<number, (answer: FileRead | "stopped" | "unreadable" | "gone") => void>();
  let gone: "stopped" | "gone" | null = null;
  const end = (why: "stopped" | "gone") => {
    gone ??= why;
    for (const settle of waiting.values()) settle(why);
    waiting.clear();
    void worker.terminate();
  };
  worker.on("message", (reply: Reply) => {
    const settle = waiting.get(reply.id);
    waiting.delete(reply.id);
    if ("read" in reply) knownText(reply.read.record, reply.text);
    settle?.("read" in reply ? reply.read : "unreadable");
  });
  worker.on("error", () => end("gone"));
  worker.on("exit", () => end("gone"));
  const onAbort = () => end("stopped");
  signal?.addEventListener("abort", onAbort, { once: true });
  let next = 0;
  return {
    read(job) {
      if (gone) return Promise.resolve(gone);
      const request: Request = { id: next++, agent: job.agent, file: job.file, old: job.old };
      return new Promise((settle) => {
        waiting.set(request.id, settle);
        worker.postMessage(request);
      });
    },
    stop() {
      signal?.removeEventListener("abort", onAbort);
      end("stopped");
    },
  };
}

/** The helper's side: read what it is sent, with the prices it was given. */
function serveReads(port: NonNullable<typeof parentPort>, table: PriceTable): void {
  usePrices(table);
  port.on("message", (request: Request) => {
    readLogFile(request.agent, request.file, request.old).then(
      (read) => {
        // its JSON made here too (the main thread only joins the texts), its numbers moved, not copied
        const { sums, keyed } = read.record;
        port.postMessage({ id: request.id, read, text: recordText(read.record) } satisfies Reply, [sums.buffer as ArrayBuffer, keyed.buffer as ArrayBuffer]);
      },
      () => port.postMessage({ id: request.id, failed: true } satisfies Reply),
    );
  });
}

if (!isMainThread && parentPort && (workerData as Record<string, unknown> | null)?.[HELPER_MARK] === true)
  serveReads(parentPort, (workerData as { prices: PriceTable }).prices);
