/** A running program as the OS lists it: its pid, its whole command line and whose it is. */
export interface RunningProcess {
  pid: number;
  command: string;
  /** The user it runs as (its effective user id); null where the OS did not say. */
  uid: number | null;
}

export interface ProcessResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** How a program is run: its environment and stdin, how long it may take, and how much of its output is read. */
export interface RunOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  timeoutMs?: number;
  idleTimeoutMs?: number;
  signal?: AbortSignal;
  /**
   * What is kept of its output. "all" (the default): stdout and stderr, each up to `maxOutputBytes`;
   * a program that prints more is ended with its process group, and the run fails with an error
   * naming the cap (its answer is never read as valid). "stderr-first-line": only the first line of
   * stderr (a notification command's complaint); everything else is read and dropped.
   */
  keep?: "all" | "stderr-first-line";
  /** The cap of "all", per stream (default 8 MiB: far more than any CLI's answer). */
  maxOutputBytes?: number;
}

/**
 * Runs a program without a shell. Secrets go through `env` or `stdin`, never `args`. Its output is
 * read with a bound (`RunOptions.keep`), so a program that prints without end holds no memory.
 */
export interface ProcessRunner {
  run(command: string, args: readonly string[], options?: RunOptions): Promise<ProcessResult>;
  /** Absolute path of a program on PATH (or in extra dirs), or null. */
  which(command: string, extraDirs?: readonly string[]): Promise<string | null>;
  /**
   * Every running process with its command line, read from the OS without starting a program
   * (Linux's /proc); null (or absent) where that cannot be done, and callers run `ps` instead.
   */
  processTable?(): Promise<RunningProcess[] | null>;
  /** The user id quotabar runs as, to tell its own processes from other users'; null (or absent) where there is none. */
  userId?(): number | null;
  /** Starts a program to talk to line by line (a JSON-RPC server); absent where that cannot be done. */
  start?: StartSession;
}

/**
 * A program held in a conversation over stdin and stdout, line by line (a JSON-RPC server such as
 * `codex app-server`). It runs in its own process group, stopped as a whole by `end`, a timeout or
 * the signal.
 */
export interface ProcessSession {
  /** Writes one line to its stdin (the newline is added). Secrets may travel here, never in `args`. */
  send(line: string): void;
  /**
   * The next line it wrote on stdout; null once stdout has ended (it exited, was stopped, or timed
   * out). Rejects when the program could not be started (ENOENT, EACCES) or wrote a line too long.
   */
  nextLine(): Promise<string | null>;
  /** The end of what it wrote on stderr so far. */
  stderr(): string;
  /** Whether the timeout or the signal stopped it. */
  timedOut(): boolean;
  /** Closes its stdin and stops its process group; safe to call more than once. */
  end(): void;
}

/** Starts a program for a conversation (see ProcessSession); absent where a runner cannot hold one. */
export type StartSession = (
  command: string,
  args: readonly string[],
  options?: { env?: Record<string, string | undefined>; timeoutMs?: number; signal?: AbortSignal },
) => ProcessSession;
