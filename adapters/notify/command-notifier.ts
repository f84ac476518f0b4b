import type { Notification, Notifier } from "../../ports/notifier.js";
import type { ProcessRunner } from "../../ports/process-runner.js";

/** A command that hangs is ended after this, with its process group, and reported. */
const TIMEOUT_MS = 10_000;

/**
 * `--notify-command <cmd>`: a shell command line of the user's, run once per event with the event's
 * JSON (one line) on stdin; the runs of one refresh go side by side. A failure is reported through
 * `warn`, never thrown. `signal` ends every run under way (Ctrl-C: none outlives quotabar).
 */
export class CommandNotifier implements Notifier {
  constructor(
    private readonly command: string,
    private readonly processes: ProcessRunner,
    private readonly warn: (line: string) => void,
    private readonly shell = "/bin/sh",
    private readonly signal?: AbortSignal,
  ) {}

  async notify({ event }: Notification): Promise<void> {
    try {
      const result = await this.processes.run(this.shell, ["-c", this.command], {
        stdin: `${JSON.stringify(event)}\n`,
        timeoutMs: TIMEOUT_MS,
        keep: "stderr-first-line", // all a warning says: a command printing 200 MB holds no memory
        ...(this.signal ? { signal: this.signal } : {}),
      });
      if (result.timedOut) this.warn(`--notify-command did not finish within ${TIMEOUT_MS / 1000} s; it was stopped.`);
      else if (result.exitCode !== 0) {
        const said = result.stderr.trim().slice(0, 200);
        this.warn(`--notify-command failed (exit code ${result.exitCode})${said ? `: ${said}` : ""}`);
      }
    } catch (error) {
      this.warn(`--notify-command could not be run: ${(error as Error).message}`);
    }
  }
}

/** Several notifiers as one, told side by side. */
export function allNotifiers(notifiers: readonly Notifier[]): Notifier {
  return {
    async notify(notification) {
      await Promise.all(notifiers.map((notifier) => notifier.notify(notification)));
    },
  };
}
