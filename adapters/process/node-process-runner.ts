import { constants, readFileSync } from "node:fs";
import { access, readdir } from "node:fs/promises";
import { basename, delimiter, isAbsolute, join } from "node:path";
import type { Readable } from "node:stream";
import { QuotabarError } from "../../domain/errors.js";
import type { ProcessResult, ProcessRunner, RunningProcess, RunOptions } from "../../ports/process-runner.js";
import { startSession } from "./process-session.js";

const KILL_GRACE_MS = 1_000;
/** What a stream of a program is read up to by default: far more than any CLI's answer (kiro-cli's is a few KB). */
export const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
/** The most of stderr's first line kept under "stderr-first-line" (a message is cut to 200 characters anyway). */
const MAX_FIRST_LINE_BYTES = 4 * 1024;

/**
 * Runs CLIs (kiro-cli, auggie, ...) without a shell, in their own process group so a timeout can
 * kill the whole tree. Secrets travel through env or stdin only; `args` must never hold one. Output
 * is read with a bound (RunOptions.keep): memory stays flat whatever a program prints.
 */
export class NodeProcessRunner implements ProcessRunner {
  constructor(private readonly path: string | undefined = process.env.PATH) {}

  /** A conversation line by line (a JSON-RPC server), in its own process group too. */
  readonly start = startSession;

  async run(command: string, args: readonly string[], options: RunOptions = {}): Promise<ProcessResult> {
    // child_process (with net and its streams) loads with the first program run: ~2 ms a listing never needs
    const { spawn } = await import("node:child_process");
    const cap = options.maxOutputBytes ?? MAX_OUTPUT_BYTES;
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        env: options.env
          ? (Object.fromEntries(Object.entries(options.env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv)
          : process.env,
        stdio: ["pipe", "pipe", "pipe"],
        detached: process.platform !== "win32", // its own process group, killed as a whole
      });
      let timedOut = false;
      let tooLarge = false;
      let hardTimer: NodeJS.Timeout | undefined;
      let idleTimer: NodeJS.Timeout | undefined;
      const endGroup = () => {
        signalGroup(child.pid, "SIGTERM");
        setTimeout(() => signalGroup(child.pid, "SIGKILL"), KILL_GRACE_MS).unref();
      };
      const killGroup = () => {
        timedOut = true;
        endGroup();
      };
      const armIdle = () => {
        if (!options.idleTimeoutMs) return;
        clearTimeout(idleTimer);
        idleTimer = setTimeout(killGroup, options.idleTimeoutMs);
      };
      const overflow = () => {
        // the answer is not read past the cap, nor shown: the program is ended and the run fails
        if (tooLarge) return;
        tooLarge = true;
        endGroup();
        child.stdout.destroy();
        child.stderr.destroy();
      };
      if (options.timeoutMs) hardTimer = setTimeout(killGroup, options.timeoutMs);
      armIdle();
      const onAbort = () => killGroup();
      options.signal?.addEventListener("abort", onAbort, { once: true });
      const firstLine = options.keep === "stderr-first-line";
      const stdout = firstLine ? discard(child.stdout, armIdle) : capped(child.stdout, cap, armIdle, overflow);
      const stderr = firstLine ? untilNewline(child.stderr, armIdle) : capped(child.stderr, cap, armIdle, overflow);
      child.on("error", (error) => {
        clearTimeout(hardTimer);
        clearTimeout(idleTimer);
        reject(error);
      });
      child.on("close", (exitCode) => {
        clearTimeout(hardTimer);
        clearTimeout(idleTimer);
        options.signal?.removeEventListener("abort", onAbort);
        if (tooLarge) return reject(outputTooLarge(command, cap));
        resolve({ exitCode, stdout: stdout(), stderr: stderr(), timedOut });
      });
      child.stdin.on("error", () => undefined); // a child that exits without reading stdin
      child.stdin.end(options.stdin ?? "");
    });
  }

  async which(command: string, extraDirs: readonly string[] = []): Promise<string | null> {
    if (isAbsolute(command)) return (await isExecutable(command)) ? command : null;
    const candidates = [...(this.path ?? "").split(delimiter).filter(Boolean), ...extraDirs].map((dir) => join(dir, command));
    // every directory at once (one look after another was ~15 ms of `quotabar providers`); the first in order wins
    const executable = await Promise.all(candidates.map(isExecutable));
    return candidates[executable.indexOf(true)] ?? null;
  }

  processTable(): Promise<RunningProcess[] | null> {
    return process.platform === "linux" ? readProcfs() : Promise.resolve(null);
  }

  userId(): number | null {
    return process.getuid?.() ?? null;
  }
}

/** As many processes and as long a command line as `ps` output is read for (providers/kit/process-probe.ts). */
const MAX_PROCESSES = 20_000;
const MAX_COMMAND = 64 * 1024;

/**
 * /proc/<pid>/cmdline of every process, its arguments joined by spaces, and the effective uid of
 * /proc/<pid>/status: what `ps -ax -ww -o pid=,uid=,command=` prints for them, without the cost of
 * starting ps (a fork of this process, then ps reading several files per process). Kernel threads
 * (no command line) and processes gone meanwhile are left out; null without a readable /proc (macOS).
 */
async function readProcfs(): Promise<RunningProcess[] | null> {
  let pids: string[];
  try {
    pids = (await readdir("/proc")).filter((name) => /^\d{1,10}$/.test(name)).slice(0, MAX_PROCESSES);
    await access("/proc/self/cmdline", constants.R_OK);
  } catch {
    return null;
  }
  // /proc is in memory: a synchronous read takes microseconds, where the asynchronous API makes four
  // thread-pool trips per file (6x slower over 65 processes); the loop is given back every 100
  const found: RunningProcess[] = [];
  for (const [i, pid] of pids.entries()) {
    if (i > 0 && i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    const command = commandLine(pid);
    if (command) found.push({ pid: Number(pid), command, uid: effectiveUid(pid) });
  }
  return found;
}

/** A process's arguments joined by spaces; null for a kernel thread, a process gone meanwhile, or one not ours to read. */
function commandLine(pid: string): string | null {
  let raw: Buffer;
  try {
    raw = readFileSync(`/proc/${pid}/cmdline`);
  } catch {
    return null;
  }
  if (raw.length === 0 || raw.length > MAX_COMMAND) return null;
  let end = raw.length;
  while (end > 0 && raw[end - 1] === 0) end--; // each argument ends with a NUL
  return raw.subarray(0, end).toString("utf8").replaceAll("\0", " ").trim() || null;
}

/** The effective uid of the `Uid:` line of /proc/<pid>/status (real, effective, saved, file system); null when it cannot be read. */
function effectiveUid(pid: string): number | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "latin1");
  } catch {
    return null;
  }
  const start = status.indexOf("\nUid:");
  if (start === -1) return null;
  const end = status.indexOf("\n", start + 1);
  const fields = status
    .slice(start + 5, end === -1 ? undefined : end)
    .trim()
    .split(/\s+/);
  const uid = Number(fields[1]);
  return /^\d{1,10}$/.test(fields[1] ?? "") && Number.isSafeInteger(uid) ? uid : null;
}

/** A stream's bytes up to `cap`; one more calls `overflow`. Decoded as UTF-8 once, at the end. */
function capped(stream: Readable, cap: number, onData: () => void, overflow: () => void): () => string {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on("data", (chunk: Buffer) => {
    onData();
    size += chunk.length;
    if (size > cap) return overflow();
    chunks.push(chunk);
  });
  return () => Buffer.concat(chunks).toString("utf8");
}

/** A stream read to its end and dropped (kept flowing, so the program never blocks on a full pipe). */
function discard(stream: Readable, onData: () => void): () => string {
  stream.on("data", onData);
  return () => "";
}

/** A stream's first line (at most MAX_FIRST_LINE_BYTES of it); the rest is read and dropped. */
function untilNewline(stream: Readable, onData: () => void): () => string {
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  stream.on("data", (chunk: Buffer) => {
    onData();
    if (done) return;
    const end = chunk.indexOf(0x0a);
    const part = end === -1 ? chunk : chunk.subarray(0, end);
    chunks.push(part.subarray(0, MAX_FIRST_LINE_BYTES - size));
    size += part.length;
    done = end !== -1 || size >= MAX_FIRST_LINE_BYTES;
  });
  return () => Buffer.concat(chunks).toString("utf8");
}

/** The failure of a run whose program printed more than the cap: named, with the cap, never its output. */
function outputTooLarge(command: string, cap: number): QuotabarError {
  const mib = cap / (1024 * 1024);
  const size = Number.isInteger(mib) ? `${mib} MiB` : `${cap} bytes`;
  return new QuotabarError("upstream", `${basename(command)} printed more than ${size}; it was stopped and its output not read`);
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
