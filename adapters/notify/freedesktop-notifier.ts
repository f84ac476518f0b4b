import { withoutControls } from "../../domain/untrusted-text.js";
import type { Notification } from "../../ports/notifier.js";
import { DesktopDelivery } from "./desktop-delivery.js";

const TIMEOUT_MS = 5_000;
const SHOWN_MS = 10_000;

/**
 * The Freedesktop notification service (org.freedesktop.Notifications on the session bus), through
 * `notify-send` when it is installed, else `gdbus` (dbus-send cannot build the call's a{sv} hints).
 * When neither is there, or the bus has no service (a server, CI), it says so once, through `warn`,
 * and tries no more. The body is escaped for the service's markup; the text holds no secret.
 */
export class FreedesktopNotifier extends DesktopDelivery {
  private sender: Promise<{ program: "notify-send" | "gdbus"; path: string } | null> | undefined;

  protected async deliver(notification: Notification): Promise<string | null> {
    const sender = await (this.sender ??= this.findSender());
    if (!sender) return "neither notify-send nor gdbus is installed";
    const { title, urgent } = notification;
    const body = escapeMarkup(notification.body);
    const args =
      sender.program === "notify-send"
        ? ["-a", "quotabar", "-u", urgent ? "critical" : "normal", "-t", String(SHOWN_MS), "--", title, body]
        : gdbusArgs(title, body, urgent);
    const result = await this.processes.run(sender.path, args, { timeoutMs: TIMEOUT_MS });
    if (result.exitCode === 0 && !result.timedOut) return null;
    const why = result.timedOut ? "it did not answer" : firstLine(result.stderr) || `exit code ${result.exitCode}`;
    return `the notification service could not be reached (${sender.program}: ${why})`;
  }

  private async findSender() {
    const notifySend = await this.processes.which("notify-send");
    if (notifySend) return { program: "notify-send" as const, path: notifySend };
    const gdbus = await this.processes.which("gdbus");
    return gdbus ? { program: "gdbus" as const, path: gdbus } : null;
  }
}

/** Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout), each parameter as GVariant text. */
function gdbusArgs(title: string, body: string, urgent: boolean): string[] {
  return [
    "call",
    "--session",
    "--dest",
    "org.freedesktop.Notifications",
    "--object-path",
    "/org/freedesktop/Notifications",
    "--method",
    "org.freedesktop.Notifications.Notify",
    "--",
    gvariantString("quotabar"),
    "0",
    gvariantString(""),
    gvariantString(title),
    gvariantString(body),
    "[]",
    `{"urgency": <byte ${urgent ? 2 : 1}>}`,
    String(SHOWN_MS),
  ];
}

/** A GVariant text string literal: double quotes, with backslashes and quotes escaped. */
function gvariantString(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** The service reads a body as a small HTML subset: upstream text must not become a link or markup. */
function escapeMarkup(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function firstLine(text: string): string {
  return withoutControls(text.split("\n").find((line) => line.trim() !== "") ?? "")
    .trim()
    .slice(0, 200);
}
