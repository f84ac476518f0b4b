import type { Notification } from "../../ports/notifier.js";
import { DesktopDelivery } from "./desktop-delivery.js";

const TIMEOUT_MS = 5_000;
/**
 * The text reaches the script as arguments of its run handler, never inside its source: no quote in
 * a title can end a string literal, so nothing needs escaping (and the text holds no secret).
 */
const SCRIPT = ["on run argv", "display notification (item 2 of argv) with title (item 1 of argv)", "end run"];

/** macOS Notification Center through `osascript` (shown as coming from Script Editor). */
export class OsascriptNotifier extends DesktopDelivery {
  protected async deliver(notification: Notification): Promise<string | null> {
    const args = [...SCRIPT.flatMap((line) => ["-e", line]), notification.title, notification.body];
    const result = await this.processes.run("osascript", args, { timeoutMs: TIMEOUT_MS });
    if (result.exitCode === 0 && !result.timedOut) return null;
    const why = result.timedOut ? "it did not answer" : (result.stderr.trim().split("\n")[0] ?? "").slice(0, 200);
    return `osascript failed (${why})`;
  }
}
