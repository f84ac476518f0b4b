import { Flags } from "@oclif/core";
import type { KeepaliveReport } from "../../domain/session-keepalive.js";
import type { UsageDocument } from "../../domain/usage-document.js";
import type { UsageRequest } from "../../domain/usage-service.js";
import type { Core } from "../../library/compose-core.js";
import type { Notifier } from "../../ports/notifier.js";
import { eventNotification } from "../../presentation/event-text.js";
import { EXIT, exitCodeOf, QuotabarCommand, UsageError } from "../base-command.js";
import { style } from "../render/style.js";
import { renderUsageText } from "../render/usage-text.js";
import { SOURCE_MODES } from "../usage-flag-values.js";
import { usageFlags } from "./usage.js";

const MIN_INTERVAL_MS = 10_000;
const MAX_INTERVAL_MS = 24 * 3_600_000;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000 };
/** Home the cursor and clear the screen: the view is drawn afresh on each refresh. */
const REDRAW = "\u001b[H\u001b[2J";

export default class Watch extends QuotabarCommand {
  static override summary = "Keep the usage on screen, refreshed every --interval, and keep web sessions alive, until Ctrl-C.";
  static override description =
    "Refreshes now and then every --interval (default 5m). Each refresh's events (a meter crossing a threshold, 80 and 95 % by default; a run-out forecast; a new incident, with --status) are told once per window: as a desktop notification (--no-notify: none) and to --notify-command. In a terminal the text view is redrawn in place; piped, each refresh is printed in turn; with --json each refresh is one JSON document on a line of its own. Every 5 minutes it also checks the web sessions of the providers shown and renews one that is about to expire; what it did is reported on stderr (in a terminal, under the view). Ctrl-C ends it at once, exit code 0; --count ends it after that many refreshes, exit 0 or 1 as for `quotabar`.";
  static override enableJsonFlag = true;
  static override examples = [
    "<%= config.bin %> watch",
    "<%= config.bin %> watch -p augment --interval 1m",
    "<%= config.bin %> watch --json --interval 30s",
    "<%= config.bin %> watch --count 1 --no-notify --notify-command 'cat >> events.jsonl'",
  ];
  static override flags = {
    ...usageFlags,
    interval: Flags.string({ description: "Time between refreshes: 30s, 1m, 2h (at least 10s)", default: "5m", helpValue: "<time>" }),
    source: Flags.string({ description: "Force a source mode (providers with several sources)", options: [...SOURCE_MODES] }),
    count: Flags.integer({
      description: "Stop after this many refreshes (for cron and scripts): exit 0 when every provider answered the last one, else 1",
      min: 1,
      helpValue: "<n>",
    }),
    notify: Flags.boolean({
      description: "Desktop notifications of events: a threshold crossed, a run-out forecast, a new incident (--no-notify: none)",
      default: true,
      allowNo: true,
    }),
    "notify-command": Flags.string({
      description: "A shell command run for each event, with the event as JSON on stdin",
      helpValue: "<cmd>",
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Watch);
    const intervalMs = parseInterval(flags.interval);
    const core = await this.core(flags);
    const controller = new AbortController();
    const stop = () => controller.abort();
    // Ctrl-C also ends the notify commands under way; --count waits for them (each ends within 10 s)
    const interrupt = new AbortController();
    const interrupted = new Promise<void>((resolve) => interrupt.signal.addEventListener("abort", () => resolve(), { once: true }));
    const onSignal = () => {
      interrupt.abort();
      stop();
    };
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    const request: UsageRequest = {
      ...(flags.provider ? { providers: flags.provider } : {}),
      ...(flags.timeout ? { timeoutMs: flags.timeout * 1000 } : {}),
      ...(flags.source ? { source: flags.source } : {}),
      status: flags.status,
    };
    const json = this.jsonEnabled();
    const tty = !json && process.stdout.isTTY === true && flags.count === undefined;
    const { cliNotifier } = await import("../notifiers.js");
    const notifier = cliNotifier({
      desktop: flags.notify,
      command: flags["notify-command"],
      warn: (line) => process.stderr.write(`${line}\n`),
      signal: interrupt.signal,
    });
    const ending = watchEnding(flags.count, stop);
    const loop = runWatch(
      core,
      { intervalMs, request, json },
      {
        write: (text) => process.stdout.write(text),
        warn: (text) => process.stderr.write(`${text}\n`),
        tty,
        color: this.color(flags.color),
        signal: controller.signal,
        ...(notifier ? { notifier } : {}),
        refreshed: (document) => ending.refreshed(document),
        refreshFailed: (error) => ending.refreshFailed(error),
      },
    );
    // Ctrl-C ends it at once: a fetch under way is abandoned, not awaited
    await Promise.race([loop, interrupted]);
    if (ending.usageFailure !== null) throw ending.usageFailure;
    if (tty) process.stdout.write("\n");
    await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
    process.exit(ending.exitCode());
  }
}

/**
 * When `quotabar watch` ends, and with what exit code: after `count` refreshes (a refresh that failed
 * as a whole counts, as a failed one), exit 1 when the last one had a failure; at once on a usage
 * failure (a config file that cannot be read) before any refresh, or at any refresh with `count`
 * (retried every --interval, it piled up cron runs). Only a watch already running without `count`
 * (its config file being edited) reports one and waits for a fix.
 */
export function watchEnding(count: number | undefined, stop: () => void) {
  let refreshes = 0;
  let lastFailed = false;
  const counted = (failed: boolean) => {
    lastFailed = failed;
    if (++refreshes === count) stop();
  };
  return {
    usageFailure: null as unknown,
    refreshed(document: UsageDocument): void {
      counted(document.providers.some((p) => !p.ok));
    },
    refreshFailed(error: unknown): void {
      if (exitCodeOf(error) === EXIT.usage && (count !== undefined || refreshes === 0)) {
        this.usageFailure = error;
        return stop();
      }
      counted(true);
    },
    exitCode(): number {
      return count !== undefined && lastFailed ? 1 : 0;
    },
  };
}

export interface WatchSettings {
  intervalMs: number;
  request: UsageRequest;
  json: boolean;
}

/** Where the loop writes, and how (a test passes its own, with a fake clock's sleep). */
export interface WatchIo {
  write(text: string): void;
  warn(line: string): void;
  /** Redraw in place (a terminal), rather than print each refresh in turn. */
  tty: boolean;
  color: boolean;
  signal: AbortSignal;
  /** Where each refresh's events go; without one, no event is raised. */
  notifier?: Notifier;
  /** After each refresh is written (and its events handed to the notifier: their delivery is not awaited). */
  refreshed?(document: UsageDocument): void;
  /** A refresh that failed as a whole (an unreadable config file), before it is reported; it may stop the loop, unreported. */
  refreshFailed?(error: unknown): void;
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
}

/**
 * The loop of `quotabar watch`: the core's watch, with each document and keepalive report written for
 * people or as JSON lines. Each refresh's events are delivered side by side and never awaited by the
 * loop (a slow command never delays the next refresh); once the loop ends, the deliveries still under
 * way are awaited (each is bounded by its notifier).
 */
export async function runWatch(core: Core, settings: WatchSettings, io: WatchIo): Promise<void> {
  const s = style(io.color);
  const notifier = io.notifier;
  const deliveries = new Set<Promise<unknown>>();
  let last: UsageDocument | null = null;
  let notes: string[] = [];
  const draw = () => {
    if (!last) return;
    const now = core.clock.now();
    const footer = s.dim(`Updated ${now.toTimeString().slice(0, 8)} · every ${formatInterval(settings.intervalMs)} · Ctrl-C to stop`);
    io.write(`${REDRAW}${renderUsageText(last, s, now)}\n\n${[...notes, footer].join("\n")}\n`);
  };
  await core.watch({
    intervalMs: settings.intervalMs,
    request: settings.request,
    signal: io.signal,
    ...(io.sleep ? { sleep: io.sleep } : {}),
    onDocument(document) {
      if (settings.json) io.write(`${JSON.stringify(document)}\n`);
      else if (io.tty) {
        last = document;
        draw();
      } else {
        // a pipe or a log: each refresh after a line that says when, so one can be told from the next
        const now = core.clock.now();
        io.write(`${s.dim(`Updated ${now.toTimeString().slice(0, 8)}`)}\n${renderUsageText(document, s, now)}\n\n`);
      }
      if (!notifier) io.refreshed?.(document);
    },
    ...(notifier
      ? {
          onEvents(events, document) {
            const now = core.clock.now();
            const delivery = Promise.all(events.map((event) => notifier.notify(eventNotification(event, document, now))));
            deliveries.add(delivery);
            void delivery.finally(() => deliveries.delete(delivery));
            io.refreshed?.(document);
          },
        }
      : {}),
    onKeepalive(reports) {
      const lines = reports.map(keepaliveLine).filter((line): line is string => line !== null);
      if (!io.tty) return lines.forEach((line) => io.warn(line));
      // in a terminal a give-up stays under the view until it is resolved; other news until the next check
      notes = reports
        .map((r) => keepaliveLine(r.gaveUp ? { ...r, outcome: "gave-up" } : r))
        .filter((line): line is string => line !== null);
      draw();
    },
    onError(error, during) {
      if (during === "refresh") io.refreshFailed?.(error);
      if (!io.signal.aborted) io.warn(`Error: ${(error as Error).message ?? String(error)}`);
    },
  });
  await Promise.all(deliveries);
}

/** One line about a keepalive check worth telling: a renewal, a failure, a give-up (with what to do); null otherwise. */
export function keepaliveLine(report: KeepaliveReport): string | null {
  if (report.outcome === "renewed") return `${report.name} session renewed (${report.detail}).`;
  if (report.outcome === "failed") return `${report.name} session renewal failed: ${report.detail} (${report.failures} in a row).`;
  if (report.outcome === "gave-up" && report.error) return `${report.error.message}${report.error.hint ? ` ${report.error.hint}` : ""}`;
  return null;
}

/** `30s`, `1m`, `2h`, or seconds alone; 10 s to 24 h. */
export function parseInterval(text: string): number {
  const match = /^(\d{1,6}) ?([smh]?)$/i.exec(text.trim());
  const ms = match ? Number(match[1]) * (UNIT_MS[(match[2] || "s").toLowerCase()] as number) : NaN;
  if (!(ms >= MIN_INTERVAL_MS && ms <= MAX_INTERVAL_MS)) {
    throw new UsageError(`Invalid --interval: ${text}`, "Give a time from 10s to 24h, such as 30s, 1m or 2h.");
  }
  return ms;
}

function formatInterval(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${ms / 1000}s`;
}
