import type { FixtureDates, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { chmodSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fixturesOf } from "../../simulator/fixtures.js";
import { kiroLogPath, kiroLogRoot } from "./log-file.js";

const fixture = fixturesOf(import.meta.url);

/** What one command of the stand-in does: print a fixture to stdout and/or stderr, then exit or hang. */
interface Reply {
  stdout?: string;
  stderr?: string;
  exit?: number;
  hang?: boolean;
}

const SIGNED_IN: Reply = { stdout: "whoami.txt" };
const PANIC = "panic.txt";
const usage = (reply: Reply) => ({ whoami: SIGNED_IN, usage: reply });

/** Kiro has no HTTP upstream: its scenarios are played by a stand-in `kiro-cli` put on PATH. */
const SCENARIOS: Record<string, { whoami: Reply; usage: Reply }> = {
  ok: usage({ stdout: "legacy.txt" }),
  boxed: usage({ stdout: "boxed.txt" }),
  managed: usage({ stdout: "managed.txt" }),
  estimated_usage: usage({ stdout: "estimated-usage.txt" }),
  not_logged_in: { whoami: { stderr: "whoami-logged-out.txt", exit: 1 }, usage: { stderr: "not-logged-in.txt", exit: 1 } },
  auth_portal: usage({ stderr: "not-logged-in.txt", exit: 1 }),
  backend_failure: usage({ stdout: "backend-failure.txt" }),
  crash: usage({ stderr: PANIC, exit: 101 }),
  hang: usage({ hang: true }),
  table_then_hang: usage({ stdout: "legacy.txt", hang: true }),
  empty: usage({}),
  old_whoami: { whoami: { stderr: PANIC, exit: 2 }, usage: { stdout: "legacy.txt" } },
};

export const KIRO_CLI_SCENARIOS = Object.keys(SCENARIOS);

/** When `legacy.txt` was printed: three weeks before its monthly credits reset on 04/01. */
const KIRO_RECORDED_AT = "2026-03-10T12:00:00Z";
/** Outputs printed at another moment: weeks before the day they reset on. */
const RECORDED_AT: Record<string, string> = {
  "boxed.txt": "2025-12-10T12:00:00Z",
  "estimated-usage.txt": "2026-05-10T12:00:00Z",
};

/** `resets on 04/01` or `resets on 2026-06-01`, as kiro-cli prints the day its credits reset. */
const RESET_DAY = /(resets on[ \t]+)(?:(\d{4})-)?(\d{1,2})([/-])(\d{1,2})/gi;

/**
 * The output with its reset day moved as `dates` moves a quoted day (by whole calendar days from
 * the recording); a day without a year is the first such day on or after the recording.
 */
function movedResetDays(text: string, dates: FixtureDates, recordedAt: string): string {
  const recorded = new Date(recordedAt);
  return text.replace(RESET_DAY, (match, lead: string, year: string | undefined, month: string, separator: string, day: string) => {
    let y = year ? Number(year) : recorded.getUTCFullYear();
    if (!year && Date.UTC(y, Number(month) - 1, Number(day) + 1) <= recorded.getTime()) y += 1;
    const pad = (value: string | number) => String(value).padStart(2, "0");
    const moved = /^"(\d{4})-(\d\d)-(\d\d)"$/.exec(dates(`"${y}-${pad(month)}-${pad(day)}"`, recordedAt));
    if (!moved) return match;
    const [, movedYear = "", movedMonth = "", movedDay = ""] = moved;
    const like = (value: string, original: string) => (original.length === 1 ? String(Number(value)) : value);
    return `${lead}${year ? `${movedYear}-` : ""}${like(movedMonth, month)}${separator}${like(movedDay, day)}`;
  });
}

/** Where a hanging stand-in writes the pid of the child it waits on, beside itself. */
export const CHILD_PID_FILE = "kiro-cli-child.pid";

/**
 * The stand-in's script: a POSIX shell script that answers `whoami` and `chat --no-interactive /usage` only.
 * With `dates` (the demo's), the reset day it prints is moved from when the output was recorded to now.
 */
export function fakeKiroCli(scenario: string, dates?: FixtureDates): string {
  const played = SCENARIOS[scenario];
  if (!played) throw new Error(`Unknown kiro scenario "${scenario}"; known: ${KIRO_CLI_SCENARIOS.join(", ")}`);
  return [
    "#!/bin/sh",
    `# kiro-cli stand-in (quotabar simulator), scenario ${scenario}`,
    'if [ "$#" -eq 1 ] && [ "$1" = whoami ]; then',
    ...commands(played.whoami, dates),
    "fi",
    'if [ "$#" -eq 3 ] && [ "$1" = chat ] && [ "$2" = --no-interactive ] && [ "$3" = /usage ]; then',
    ...commands(played.usage, dates),
    "fi",
    'echo "error: unexpected arguments: $*" >&2',
    "exit 2",
    "",
  ].join("\n");
}

/** Writes the stand-in as `<dir>/kiro-cli` (executable) and returns its path; put `dir` first on PATH. */
export function writeFakeKiroCli(dir: string, scenario = "ok", dates?: FixtureDates): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "kiro-cli");
  writeFileSync(path, fakeKiroCli(scenario, dates));
  chmodSync(path, 0o755);
  return path;
}

function commands(reply: Reply, dates?: FixtureDates): string[] {
  const print = (name: string, redirect: string) => {
    const text = dates ? movedResetDays(fixture(name), dates, RECORDED_AT[name] ?? KIRO_RECORDED_AT) : fixture(name);
    return [`cat${redirect} <<'KIRO_FIXTURE_END'`, text.endsWith("\n") ? text.slice(0, -1) : text, "KIRO_FIXTURE_END"];
  };
  return [
    ...(reply.stdout ? print(reply.stdout, "") : []),
    ...(reply.stderr ? print(reply.stderr, " >&2") : []),
    // a child in the same process group, so a test can see the whole group go
    ...(reply.hang ? [`sleep 600 & echo $! > "$(dirname "$0")/${CHILD_PID_FILE}"`, "wait"] : []),
    `exit ${reply.exit ?? 0}`,
  ];
}

/** Scenarios played through Kiro's log: the log file, how long ago its last line was written, and the stand-in kiro-cli beside it. */
const LOG_SCENARIOS: Record<string, { log: string; minutesAgo: number; cli: string }> = {
  ok: { log: "q-client.log", minutesAgo: 2, cli: "ok" },
  log_overage: { log: "q-client-overage.log", minutesAgo: 2, cli: "ok" },
  log_trial: { log: "q-client-trial.log", minutesAgo: 2, cli: "ok" },
  // older than the 15 minutes a log answer is used for, or without one: kiro-cli answers
  stale_log: { log: "q-client.log", minutesAgo: 90, cli: "ok" },
  log_no_answer: { log: "q-client-no-answer.log", minutesAgo: 1, cli: "ok" },
};

/** `2026-03-10 11:58:02.114`, the local time a log line starts with. */
const LOGGED_AT = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3})/;
const localTime = (ms: number) => {
  const at = new Date(ms);
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  const day = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  return `${day} ${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)}`;
};
const loggedAt = (line: string) => {
  const m = LOGGED_AT.exec(line);
  return m ? new Date(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!).getTime() : null;
};

export interface KiroLogSeed {
  /** The log's last line is written this long before `now`; the lines before keep their spacing. */
  minutesAgo: number;
  now?: Date;
  platform?: NodeJS.Platform;
  /** Moves the answers' times (resets, expiry) from the recording to now, as the demo does. */
  dates?: FixtureDates;
}

/**
 * Writes a fixture log where Kiro keeps it on this platform, as the latest launch's first window
 * (`<logs>/<launch>/window1/exthost/kiro.kiroAgent/q-client.log`), its lines' local times moved so
 * the last one is `minutesAgo` old, and its modification time that of its last line. Returns its path.
 */
export function writeKiroLog(home: string, fixtureName: string, seed: KiroLogSeed): string {
  const root = kiroLogRoot({ HOME: home }, seed.platform);
  if (root === null) throw new Error("Kiro keeps no log on this platform");
  const lines = fixture(fixtureName).replace(/\n$/, "").split("\n");
  const last =
    lines
      .map(loggedAt)
      .filter((at): at is number => at !== null)
      .at(-1) ?? 0;
  const end = (seed.now ?? new Date()).getTime() - seed.minutesAgo * 60_000;
  const moved = lines.map((line) => {
    const at = loggedAt(line);
    return at === null ? line : localTime(end - (last - at)) + line.slice(23);
  });
  const launch = localTime(end - 3_600_000)
    .slice(0, 19)
    .replace(/[-:]/g, "")
    .replace(" ", "T");
  const path = kiroLogPath(root, launch, "window1");
  mkdirSync(dirname(path), { recursive: true });
  const text = `${moved.join("\n")}\n`;
  writeFileSync(path, seed.dates ? seed.dates(text, KIRO_RECORDED_AT) : text);
  utimesSync(path, new Date(end), new Date(end));
  return path;
}

/** Kiro's log of the scenario when it has one, and the stand-in kiro-cli in the home's ~/.local/bin (where Kiro looks). */
function seedKiroHome(home: string, scenario: string, dates: FixtureDates): void {
  const played = LOG_SCENARIOS[scenario];
  if (played) writeKiroLog(home, played.log, { minutesAgo: played.minutesAgo, dates });
  writeFakeKiroCli(join(home, ".local", "bin"), played?.cli ?? scenario, dates);
}

/** Kiro as the simulator plays it: no routes; Kiro's log and a stand-in kiro-cli in the demo's home. */
export const kiroUpstream: SimulatedUpstream = {
  id: "kiro",
  origins: [],
  env: {},
  scenarios: [...Object.keys(LOG_SCENARIOS), ...KIRO_CLI_SCENARIOS.filter((name) => !(name in LOG_SCENARIOS))],
  routes: [],
  recordedAt: KIRO_RECORDED_AT,
  seedHome: async (home, scenario, dates) => seedKiroHome(home, scenario, dates),
};
