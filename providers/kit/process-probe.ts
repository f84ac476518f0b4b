import { QuotabarError } from "../../domain/errors.js";
import type { ProcessResult, ProcessRunner, RunningProcess } from "../../ports/process-runner.js";

/** Local programs a provider looks for (a desktop app's language server): processes with `ps`, ports with `lsof`. */

export type { RunningProcess };

export interface ProbeOptions {
  /** Who is looking, for messages ("Antigravity port detection needs lsof"). */
  service: string;
  signal?: AbortSignal;
}

const STEP_TIMEOUT_MS = 8_000;
// Output of a busy machine stays well below these; anything beyond is not read.
const MAX_LINES = 20_000;
const MAX_LINE = 64 * 1024;
const PS_DIRS = ["/bin", "/usr/bin"];
const LISTEN = /:(\d{1,5})\s+\(LISTEN\)/;

/** Every process of this machine with its full command line and its user: the runner's process table (Linux), else `ps -ax -ww -o pid=,uid=,command=`. */
export async function runningProcesses(runner: ProcessRunner, options: ProbeOptions): Promise<RunningProcess[]> {
  const table = await runner.processTable?.();
  if (table) return table;
  const ps = await runner.which("ps", PS_DIRS);
  if (ps === null) {
    throw new QuotabarError("not_installed", `${options.service} process detection needs ps, which was not found.`, {
      remedies: [{ kind: "install", tool: "ps" }],
    });
  }
  const result = await run(runner, ps, ["-ax", "-ww", "-o", "pid=,uid=,command="], options);
  if (result.exitCode !== 0 && result.stdout.trim() === "") {
    throw new QuotabarError(
      "upstream",
      `${options.service}: ps failed: ${result.stderr.trim().slice(0, 200) || `exit code ${result.exitCode}`}`,
    );
  }
  return parseProcessList(result.stdout);
}

/**
 * The running processes, split by whose they are: `own` run as the user quotabar runs as, the only
 * ones trusted to be the app they look like (any user can start a program named like an app's
 * local server, and answer its calls); `others` are the rest, to say why nothing was found. A
 * process whose user is unknown, or a runner that cannot say who it runs as, counts as another's.
 */
export async function ownProcesses(
  runner: ProcessRunner,
  options: ProbeOptions,
): Promise<{ own: RunningProcess[]; others: RunningProcess[] }> {
  const me = runner.userId?.() ?? null;
  const own: RunningProcess[] = [];
  const others: RunningProcess[] = [];
  for (const process of await runningProcesses(runner, options)) (me !== null && process.uid === me ? own : others).push(process);
  return { own, others };
}

/** The TCP ports a process listens on, ascending (`lsof -nP -iTCP -sTCP:LISTEN -a -p <pid>`; `-a` ANDs the filters). */
export async function listeningPorts(runner: ProcessRunner, pid: number, options: ProbeOptions): Promise<number[]> {
  const lsof = await runner.which("lsof");
  if (lsof === null) {
    throw new QuotabarError("not_installed", `${options.service} port detection needs lsof, which is not on PATH.`, {
      remedies: [{ kind: "install", tool: "lsof" }],
    });
  }
  // lsof exits 1 when the process listens on nothing: the output decides, not the exit code
  return parseListeningPorts((await run(runner, lsof, ["-nP", "-iTCP", "-sTCP:LISTEN", "-a", "-p", String(pid)], options)).stdout);
}

/** `ps` lines (`  48213   501 /path/to/program --flag value`) as pid, uid and command; other lines are skipped. */
export function parseProcessList(text: string): RunningProcess[] {
  const found: RunningProcess[] = [];
  for (const raw of boundedLines(text)) {
    const [pid, rest] = firstWord(raw);
    const [uid, command] = firstWord(rest);
    if (/^\d{1,10}$/.test(pid) && Number(pid) > 0 && /^\d{1,10}$/.test(uid) && command !== "")
      found.push({ pid: Number(pid), command, uid: Number(uid) });
  }
  return found;
}

/** A line's first word and the rest, both trimmed. */
function firstWord(text: string): [string, string] {
  const line = text.trim();
  const space = line.search(/\s/);
  return space <= 0 ? [line, ""] : [line.slice(0, space), line.slice(space + 1).trim()];
}

/** The `host:port (LISTEN)` ports of `lsof` output, de-duplicated and ascending. */
export function parseListeningPorts(text: string): number[] {
  const ports = new Set<number>();
  for (const line of boundedLines(text)) {
    const port = Number(LISTEN.exec(line)?.[1]);
    if (Number.isInteger(port) && port > 0 && port <= 65_535) ports.add(port);
  }
  return [...ports].sort((a, b) => a - b);
}

function boundedLines(text: string): string[] {
  return text.split("\n", MAX_LINES).filter((line) => line.length <= MAX_LINE);
}

async function run(runner: ProcessRunner, program: string, args: string[], options: ProbeOptions): Promise<ProcessResult> {
  const name = program.slice(program.lastIndexOf("/") + 1);
  let result: ProcessResult;
  try {
    result = await runner.run(program, args, { timeoutMs: STEP_TIMEOUT_MS, ...(options.signal ? { signal: options.signal } : {}) });
  } catch (error) {
    throw new QuotabarError("upstream", `${options.service}: could not run ${name}: ${(error as Error).message}`);
  }
  if (result.timedOut) {
    throw new QuotabarError("timeout", `${options.service}: ${name} did not finish within ${STEP_TIMEOUT_MS / 1000} s`, {
      remedies: [{ kind: "retry" }],
    });
  }
  return result;
}
