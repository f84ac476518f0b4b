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

/** Runs a program without a shell. Secrets go through `env` or `stdin`, never `args`. */
export interface ProcessRunner {
  run(
    command: string,
    args: readonly string[],
    options?: {
      env?: Record<string, string | undefined>;
      stdin?: string;
      timeoutMs?: number;
      idleTimeoutMs?: number;
      signal?: AbortSignal;
    },
  ): Promise<ProcessResult>;
  /** Absolute path of a program on PATH (or in extra dirs), or null. */
  which(command: string, extraDirs?: readonly string[]): Promise<string | null>;
  /**
   * Every running process with its command line, read from the OS without starting a program
   * (Linux's /proc); null (or absent) where that cannot be done, and callers run `ps` instead.
   */
  processTable?(): Promise<RunningProcess[] | null>;
  /** The user id quotabar runs as, to tell its own processes from other users'; null (or absent) where there is none. */
  userId?(): number | null;
}
