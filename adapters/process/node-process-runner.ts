import { constants, readFileSync } from "node:fs";
import { access, readdir } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import type { ProcessResult, ProcessRunner, RunningProcess } from "../../ports/process-runner.js";
import { startSession } from "./process-session.js";

const KILL_GRACE_MS = 1_000;

/**
 * Runs CLIs (kiro-cli, auggie, ...) without a shell, in their own process group so a timeout can
 * kill the whole tree. Secrets travel through env or stdin only; `args` must never hold one.
 */
export class NodeProcessRunner implements ProcessRunner {
  constructor(private readonly path: string | undefined = process.env.PATH) {}

  /** A conversation line by line (a JSON-RPC server), in its own process group too. */
  readonly start = startSession;

  async run(
    command: string,
    args: readonly string[],
    options: {
      env?: Record<string, string | undefined>;
      stdin?: string;
      timeoutMs?: number;
      idleTimeoutMs?: number;
      signal?: AbortSignal;
    } = {},
  ): Promise<ProcessResult> {
    // child_process (with net and its streams) loads with the first program run: ~2 ms a listing never needs
    const { spawn } = await import("node:child_process");
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        env: options.env
          ? (Object.fromEntries(Object.entries(options.env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv)
          : process.env,
        stdio: ["pipe", "pipe", "pipe"],
        detached: process.platform !== "win32", // its own process group, killed as a whole
      });
      let stdout = "";
      let stderr = "";
      let timedOut = false;
      let hardTimer: NodeJS.Timeout | undefined;
      let idleTimer: NodeJS.Timeout | undefined;
      const killGroup = () => {
        timedOut = true;
        signalGroup(child.pid, "SIGTERM");
        setTimeout(() => signalGroup(child.pid, "SIGKILL"), KILL_GRACE_MS).unref();
      };
      const armIdle = () => {
        if (!options.idleTimeoutMs) return;
        clearTimeout(idleTimer);
        idleTimer = setTimeout(killGroup, options.idleTimeoutMs);
      };
      if (options.timeoutMs) hardTimer = setTimeout(killGroup, options.timeoutMs);
      armIdle();
      const onAbort = () => killGroup();
      options.signal?.addEventListener("abort", onAbort, { once: true });
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
        armIdle();
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
        armIdle();
      });
      child.on("error", (error) => {
        clearTimeout(hardTimer);
        clearTimeout(idleTimer);
        reject(error);
      });
      child.on("close", (exitCode) => {
        clearTimeout(hardTimer);
        clearTimeout(idleTimer);
        options.signal?.removeEventListener("abort", onAbort);
        resolve({ exitCode, stdout, stderr, timedOut });
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
