import type { SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixturesOf } from "../../simulator/fixtures.js";

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
/** Where a hanging stand-in writes the pid of the child it waits on, beside itself. */
export const CHILD_PID_FILE = "kiro-cli-child.pid";

/** The stand-in's script: a POSIX shell script that answers `whoami` and `chat --no-interactive /usage` only. */
export function fakeKiroCli(scenario: string): string {
  const played = SCENARIOS[scenario];
  if (!played) throw new Error(`Unknown kiro scenario "${scenario}"; known: ${KIRO_CLI_SCENARIOS.join(", ")}`);
  return [
    "#!/bin/sh",
    `# kiro-cli stand-in (quotabar simulator), scenario ${scenario}`,
    'if [ "$#" -eq 1 ] && [ "$1" = whoami ]; then',
    ...commands(played.whoami),
    "fi",
    'if [ "$#" -eq 3 ] && [ "$1" = chat ] && [ "$2" = --no-interactive ] && [ "$3" = /usage ]; then',
    ...commands(played.usage),
    "fi",
    'echo "error: unexpected arguments: $*" >&2',
    "exit 2",
    "",
  ].join("\n");
}

/** Writes the stand-in as `<dir>/kiro-cli` (executable) and returns its path; put `dir` first on PATH. */
export function writeFakeKiroCli(dir: string, scenario = "ok"): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "kiro-cli");
  writeFileSync(path, fakeKiroCli(scenario));
  chmodSync(path, 0o755);
  return path;
}

function commands(reply: Reply): string[] {
  const print = (name: string, redirect: string) => {
    const text = fixture(name);
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

/** Kiro as the simulator plays it: no routes, a stand-in kiro-cli in the home's ~/.local/bin (where Kiro looks). */
export const kiroUpstream: SimulatedUpstream = {
  id: "kiro",
  origins: [],
  env: {},
  scenarios: KIRO_CLI_SCENARIOS,
  routes: [],
  seedHome: async (home, scenario) => void writeFakeKiroCli(join(home, ".local", "bin"), scenario),
};
