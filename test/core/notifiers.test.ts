import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { allNotifiers, CommandNotifier } from "../../adapters/notify/command-notifier.js";
import { desktopNotifier } from "../../adapters/notify/desktop-notifier.js";
import { FreedesktopNotifier } from "../../adapters/notify/freedesktop-notifier.js";
import { OsascriptNotifier } from "../../adapters/notify/osascript-notifier.js";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { meter } from "../../domain/meter.js";
import type { QuotabarEvent } from "../../domain/usage-events.js";
import type { UsageDocument } from "../../domain/usage-document.js";
import type { Notification } from "../../ports/notifier.js";
import type { ProcessResult, ProcessRunner } from "../../ports/process-runner.js";
import { eventNotification } from "../../presentation/event-text.js";
import { providerUsage, usageDocument } from "../helpers/usage.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const NOW = new Date("2026-11-26T18:00:00.000Z");
const threshold: QuotabarEvent = {
  type: "threshold",
  provider: "zai",
  account: null,
  meter: "primary",
  label: "Tokens",
  threshold: 95,
  usedPercent: 96.4,
  resetsAt: "2026-11-26T20:00:00.000Z",
  at: NOW.toISOString(),
};
const runOut: QuotabarEvent = {
  type: "runOut",
  provider: "zai",
  account: null,
  meter: "secondary",
  runsOutAt: "2026-11-26T19:40:00.000Z",
  resetsAt: "2026-11-26T22:00:00.000Z",
  at: NOW.toISOString(),
};
const incident: QuotabarEvent = {
  type: "incident",
  provider: "copilot",
  account: null,
  indicator: "major",
  title: 'Copilot "chat" <b>errors</b>\nin\u001b[31m VS Code',
  url: "https://www.githubstatus.com/incidents/x",
  at: NOW.toISOString(),
};
const document: UsageDocument = usageDocument(
  NOW,
  providerUsage({ primary: meter("Tokens"), secondary: meter("Weekly tokens"), fetchedAt: NOW.toISOString() }),
);

/** A process runner that records each run and answers as told; which() finds only `installed`. */
function fakeRunner(installed: string[], answer: Partial<ProcessResult> = {}) {
  const runs: { command: string; args: readonly string[]; stdin?: string | undefined }[] = [];
  const runner: ProcessRunner = {
    async run(command, args, options) {
      runs.push({ command, args, stdin: options?.stdin });
      return { exitCode: 0, stdout: "", stderr: "", timedOut: false, ...answer };
    },
    which: async (name) => (installed.includes(name) ? `/usr/bin/${name}` : null),
  };
  return { runner, runs };
}

const notification = (event: QuotabarEvent): Notification => eventNotification(event, document, NOW);

describe("an event as people read it", () => {
  it("names the provider and meter from the document, says what happened and whether it is urgent", () => {
    expect(notification(threshold)).toEqual({
      event: threshold,
      title: "z.ai · Tokens at 96%",
      body: "Crossed 95%, resets in 2h 00m.",
      urgent: true,
    });
    expect(notification({ ...threshold, threshold: 80, usedPercent: 85, resetsAt: null })).toMatchObject({
      body: "Crossed 80%.",
      urgent: false,
    });
    expect(notification(runOut)).toMatchObject({
      title: "z.ai · Weekly tokens runs out in 1h 40m",
      body: "At this pace it is used up 2h 20m before the reset.",
      urgent: true,
    });
    // a provider the document does not hold: its id; an incident's title on one line, without escapes
    expect(notification(incident)).toMatchObject({
      title: "copilot · major incident",
      body: 'Copilot "chat" <b>errors</b> in VS Code',
      urgent: true,
    });
  });
});

describe("the Freedesktop notifier", () => {
  it("sends through notify-send, critical when urgent, the body's markup escaped", async () => {
    const { runner, runs } = fakeRunner(["notify-send", "gdbus"]);
    const warnings: string[] = [];
    await new FreedesktopNotifier(runner, (line) => warnings.push(line)).notify(notification(incident));
    expect(runs).toEqual([
      {
        command: "/usr/bin/notify-send",
        args: [
          "-a",
          "quotabar",
          "-u",
          "critical",
          "-t",
          "10000",
          "--",
          "copilot · major incident",
          'Copilot "chat" &lt;b&gt;errors&lt;/b&gt; in VS Code',
        ],
        stdin: undefined,
      },
    ]);
    expect(warnings).toEqual([]);
  });

  it("calls the service with gdbus when notify-send is not installed, the strings as GVariant literals", async () => {
    const { runner, runs } = fakeRunner(["gdbus"]);
    await new FreedesktopNotifier(runner, () => undefined).notify({
      ...notification(threshold),
      title: 'z.ai · "Tokens" \\ 96%',
      urgent: false,
    });
    expect(runs[0]!.command).toBe("/usr/bin/gdbus");
    expect(runs[0]!.args.slice(8)).toEqual([
      "--",
      '"quotabar"',
      "0",
      '""',
      '"z.ai · \\"Tokens\\" \\\\ 96%"',
      '"Crossed 95%, resets in 2h 00m."',
      "[]",
      '{"urgency": <byte 1>}',
      "10000",
    ]);
  });

  it("says once that no service answered, and tries no more", async () => {
    const { runner, runs } = fakeRunner(["notify-send"], { exitCode: 1, stderr: "\nCould not connect: No such file or directory\n" });
    const warnings: string[] = [];
    const notifier = new FreedesktopNotifier(runner, (line) => warnings.push(line));
    await notifier.notify(notification(threshold));
    await notifier.notify(notification(runOut));
    expect(runs).toHaveLength(1);
    expect(warnings).toEqual([
      "No desktop notifications: the notification service could not be reached (notify-send: Could not connect: No such file or directory). --notify-command delivers events instead; --no-notify turns this off.",
    ]);
    const none = fakeRunner([]);
    const told: string[] = [];
    const without = new FreedesktopNotifier(none.runner, (line) => told.push(line));
    await without.notify(notification(threshold));
    await without.notify(notification(threshold));
    expect(none.runs).toEqual([]);
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("neither notify-send nor gdbus is installed");
  });
});

describe("the macOS notifier", () => {
  it("hands the text to osascript as arguments: a quote in it never reaches the script's source", async () => {
    const { runner, runs } = fakeRunner([]);
    const title = 'z.ai · "Tokens" at 96%" & do shell script "touch /tmp/x';
    await new OsascriptNotifier(runner, () => undefined).notify({ ...notification(threshold), title });
    expect(runs).toEqual([
      {
        command: "osascript",
        args: [
          "-e",
          "on run argv",
          "-e",
          "display notification (item 2 of argv) with title (item 1 of argv)",
          "-e",
          "end run",
          title,
          "Crossed 95%, resets in 2h 00m.",
        ],
        stdin: undefined,
      },
    ]);
    const failing = fakeRunner([], { exitCode: 1, stderr: "execution error: not allowed (-1743)\n" });
    const warnings: string[] = [];
    const notifier = new OsascriptNotifier(failing.runner, (line) => warnings.push(line));
    await notifier.notify(notification(threshold));
    await notifier.notify(notification(threshold));
    expect(failing.runs).toHaveLength(1);
    expect(warnings).toEqual([
      "No desktop notifications: osascript failed (execution error: not allowed (-1743)). --notify-command delivers events instead; --no-notify turns this off.",
    ]);
    expect(desktopNotifier("darwin", runner, () => undefined)).toBeInstanceOf(OsascriptNotifier);
    expect(desktopNotifier("linux", runner, () => undefined)).toBeInstanceOf(FreedesktopNotifier);
  });
});

describe("--notify-command", () => {
  it("runs the shell command line once per event with the event's JSON on stdin", async () => {
    const dir = mkdtempSync(join(tmpdir(), "qb-notify-"));
    dirs.push(dir);
    const file = join(dir, "events.jsonl");
    const warnings: string[] = [];
    const notifier = new CommandNotifier(`cat >> '${file}'`, new NodeProcessRunner(), (line) => warnings.push(line));
    for (const event of [threshold, runOut, incident]) await notifier.notify(notification(event));
    expect(
      readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([threshold, runOut, incident]);
    expect(warnings).toEqual([]);
  });

  it("reports a command that fails, never throws, and the other notifiers still get the event", async () => {
    const warnings: string[] = [];
    const seen: string[] = [];
    const both = allNotifiers([
      new CommandNotifier("echo nope >&2; exit 3", new NodeProcessRunner(), (line) => warnings.push(line)),
      { notify: async (n) => void seen.push(n.title) },
    ]);
    await both.notify(notification(threshold));
    await new CommandNotifier("true", new NodeProcessRunner(), (line) => warnings.push(line), "/no/such/shell").notify(
      notification(threshold),
    );
    expect(warnings[0]).toBe("--notify-command failed (exit code 3): nope");
    expect(warnings[1]).toMatch(/^--notify-command could not be run: /);
    expect(seen).toEqual(["z.ai · Tokens at 96%"]);
  });
});
