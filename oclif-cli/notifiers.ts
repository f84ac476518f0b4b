import { allNotifiers, CommandNotifier } from "../adapters/notify/command-notifier.js";
import { desktopNotifier } from "../adapters/notify/desktop-notifier.js";
import { NodeProcessRunner } from "../adapters/process/node-process-runner.js";
import type { Notifier } from "../ports/notifier.js";

/**
 * Where `quotabar watch` delivers events: the desktop unless --no-notify, and --notify-command; null
 * for neither. `signal` ends the commands under way.
 */
export function cliNotifier(options: {
  desktop: boolean;
  command?: string | undefined;
  warn: (line: string) => void;
  signal?: AbortSignal;
}): Notifier | null {
  const processes = new NodeProcessRunner(process.env.PATH);
  const notifiers: Notifier[] = [];
  if (options.desktop) notifiers.push(desktopNotifier(process.platform, processes, options.warn));
  if (options.command !== undefined && options.command.trim() !== "")
    notifiers.push(new CommandNotifier(options.command, processes, options.warn, "/bin/sh", options.signal));
  return notifiers.length === 0 ? null : allNotifiers(notifiers);
}
