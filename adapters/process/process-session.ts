import type { ChildProcessWithoutNullStreams } from "node:child_process";
import type { ProcessSession, StartSession } from "../../ports/process-runner.js";

const KILL_GRACE_MS = 1_000;
/** A stdout line longer than this is refused: no JSON-RPC answer of a usage read comes near it. */
export const MAX_SESSION_LINE_BYTES = 4 << 20;
/** Only the end of stderr is kept, for an error message. */
const STDERR_KEPT = 64 * 1024;

/**
 * Starts a program without a shell, in its own process group, for a line-by-line conversation
 * over stdin and stdout. A timeout, the signal or `end` stop the whole group (SIGTERM, then SIGKILL).
 */
export const startSession: StartSession = (command, args, options = {}) => {
  // started on the first nextLine(): child_process loads only when a session is really held
  let child: ChildProcessWithoutNullStreams | null = null;
  const ready = import("node:child_process").then(({ spawn }) => {
    if (ended) return;
    child = spawn(command, args, {
      env: options.env
        ? (Object.fromEntries(Object.entries(options.env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv)
        : process.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: process.platform !== "win32",
    });
    child.on("error", (error) => fail(error));
    child.stdin.on("error", () => undefined); // a child that exits without reading stdin
    child.stdout.on("data", (chunk: Buffer) => take(chunk));
    // after the last stdout and stderr bytes: a message on stderr is in by then
    child.on("close", () => finish());
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEPT);
    });
    for (const line of queued) child.stdin.write(`${line}\n`);
    queued.length = 0;
  });

  const lines: string[] = [];
  const queued: string[] = [];
  const waiting: { resolve: (line: string | null) => void; reject: (error: unknown) => void }[] = [];
  let partial: Buffer[] = [];
  let partialBytes = 0;
  let stderr = "";
  let ended = false;
  let stopped = false;
  let timedOut = false;
  let failure: unknown = null;

  const settle = () => {
    while (waiting.length > 0 && (lines.length > 0 || ended || failure !== null)) {
      const next = waiting.shift()!;
      if (lines.length > 0) next.resolve(lines.shift()!);
      else if (failure !== null) next.reject(failure);
      else next.resolve(null);
    }
  };
  const take = (chunk: Buffer) => {
    let at = chunk.indexOf(10);
    let from = 0;
    while (at !== -1) {
      partial.push(chunk.subarray(from, at));
      lines.push(Buffer.concat(partial).toString("utf8").replace(/\r$/, ""));
      partial = [];
      partialBytes = 0;
      from = at + 1;
      at = chunk.indexOf(10, from);
    }
    if (from < chunk.length) {
      partial.push(chunk.subarray(from));
      partialBytes += chunk.length - from;
      if (partialBytes > MAX_SESSION_LINE_BYTES) {
        fail(Object.assign(new Error(`${command} wrote a line longer than ${MAX_SESSION_LINE_BYTES} bytes`), { code: "ELINE" }));
      }
    }
    settle();
  };
  const stop = () => {
    if (stopped) return;
    stopped = true;
    const pid = child?.pid;
    child?.stdin.end();
    signalGroup(pid, "SIGTERM");
    if (pid !== undefined) setTimeout(() => signalGroup(pid, "SIGKILL"), KILL_GRACE_MS).unref();
  };
  function finish() {
    ended = true;
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    stop();
    settle();
  }
  function fail(error: unknown) {
    if (failure === null) failure = error;
    finish();
  }
  const onAbort = () => {
    timedOut = true;
    finish();
  };
  const timer = options.timeoutMs ? setTimeout(onAbort, options.timeoutMs) : undefined;
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });

  const session: ProcessSession = {
    send(line) {
      if (ended) return;
      if (child) child.stdin.write(`${line}\n`);
      else queued.push(line);
    },
    async nextLine() {
      await ready;
      if (lines.length > 0) return lines.shift()!;
      if (failure !== null) throw failure;
      if (ended) return null;
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
      });
    },
    stderr: () => stderr,
    timedOut: () => timedOut,
    end: () => finish(),
  };
  return session;
};

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(process.platform === "win32" ? pid : -pid, signal);
  } catch {
    // already gone
  }
}
