import type { Notification, Notifier } from "../../ports/notifier.js";
import type { ProcessRunner } from "../../ports/process-runner.js";

const TIMEOUT_MS = 5_000;
/**
 * The text reaches the script as arguments of its run handler, never inside its source: no quote in
 * a title can end a string literal, so nothing needs escaping (and the text holds no secret).
 */
const SCRIPT = ["on run argv", "display notification (item 2 of argv) with title (item 1 of argv)", "end run"];

/** macOS Notification Center through `osascript` (shown as coming from Script Editor); a failure is said once, then it tries no more. */
export class OsascriptNotifier implements Notifier {
  private gaveUp = false;

  constructor(
    private readonly processes: ProcessRunner,
    private readonly warn: (line: string) => void,
  ) {}

  async notify(notification: Notification): Promise<void> {
    if (this.gaveUp) return;
    const args = [...SCRIPT.flatMap((line) => ["-e", line]), notification.title, notification.body];
    try {
      const result = await this.processes.run("osascript", args, { timeoutMs: TIMEOUT_MS });
      if (result.exitCode !== 0 || result.timedOut)
        this.giveUp(result.timedOut ? "it did not answer" : (result.stderr.trim().split("\n")[0] ?? ""));
    } catch (error) {
      this.giveUp((error as Error).message);
    }
  }

  private giveUp(why: string): void {
    this.gaveUp = true;
    this.warn(
      `No desktop notifications: osascript failed (${why.slice(0, 200)}). --notify-command delivers events instead; --no-notify turns this off.`,
    );
  }
}
