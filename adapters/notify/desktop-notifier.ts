import type { Notifier } from "../../ports/notifier.js";
import type { ProcessRunner } from "../../ports/process-runner.js";
import { FreedesktopNotifier } from "./freedesktop-notifier.js";
import { OsascriptNotifier } from "./osascript-notifier.js";

/** The desktop's notifications on this platform: Notification Center on macOS, the Freedesktop service elsewhere. */
export function desktopNotifier(platform: NodeJS.Platform, processes: ProcessRunner, warn: (line: string) => void): Notifier {
  return platform === "darwin" ? new OsascriptNotifier(processes, warn) : new FreedesktopNotifier(processes, warn);
}
