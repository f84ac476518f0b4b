import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

/** The session cookie's value the simulator accepts, and the one its keepalive endpoint renews it to. */
export const AUGMENT_TEST_SESSION = "augment-sim-session-0123456789abcdef";
export const AUGMENT_RENEWED_SESSION = "augment-sim-session-renewed-fedcba987654";
export const AUGMENT_TEST_COOKIE = `_session=${AUGMENT_TEST_SESSION}; ajs_anonymous_id=anon-42`;

const json = (name: string, status = 200): SimReply => ({ status, body: fixture(name), headers: { "content-type": "application/json" } });
const UNAUTHENTICATED = json("unauthenticated.json", 401);

const SCENARIOS = [
  "ok",
  "near_limit",
  "overage",
  "signed_out",
  "expired",
  "forbidden",
  "malformed",
  "not_json",
  "session_on_user",
  "slow",
  "upstream_500",
];

function signedIn(request: SimRequest): boolean {
  return String(request.headers.cookie ?? "")
    .split(";")
    .map((pair) => pair.slice(pair.indexOf("=") + 1).trim())
    .some((value) => value === AUGMENT_TEST_SESSION || value === AUGMENT_RENEWED_SESSION);
}

function credits(request: SimRequest, scenario: string): SimReply {
  if (request.headers.accept !== "application/json") return { status: 406, body: "Not Acceptable" };
  if (scenario === "signed_out" || scenario === "expired" || !signedIn(request)) return UNAUTHENTICATED;
  if (scenario === "forbidden") return { status: 403, body: "Forbidden: this account has no access to usage data\n<html>...</html>" };
  if (scenario === "malformed") return json("credits-malformed.json");
  // a sign-in page served with 200, as a proxy or an edge redirect does
  if (scenario === "not_json") return { body: "<!doctype html><title>Sign in - Augment</title>", headers: { "content-type": "text/html" } };
  if (scenario === "near_limit") return json("credits-near-limit.json");
  if (scenario === "overage") return json("credits-overage.json");
  return json("credits.json");
}

function subscription(request: SimRequest, scenario: string): SimReply {
  if (!signedIn(request)) return UNAUTHENTICATED;
  if (scenario === "near_limit") return json("subscription-error.json", 500);
  if (scenario === "overage") return json("subscription-fractional.json");
  return json("subscription.json");
}

/** The keepalive's three endpoints: a live session renews its cookie; an expired one is refused; a signed-out one answers `{}`. */
function sessionEndpoint(path: string) {
  return (request: SimRequest, scenario: string): SimReply => {
    if (scenario === "expired" || !signedIn(request)) return UNAUTHENTICATED;
    if (scenario === "signed_out") return json("session-signed-out.json");
    if (scenario === "session_on_user" && path !== "/api/user") {
      return path === "/api/auth/session" ? { status: 404, body: "Not Found" } : { body: '{"ok":true}' };
    }
    const renewed = `_session=${AUGMENT_RENEWED_SESSION}; Path=/; Max-Age=2592000; HttpOnly; Secure; SameSite=Lax`;
    return { ...json("session.json"), headers: { "content-type": "application/json", "set-cookie": renewed } };
  };
}

/** Augment's web app: the credits and subscription the usage reads, and the session endpoints the keepalive pings. */
export const augmentUpstream: SimulatedUpstream = {
  id: "augment",
  origins: ["https://app.augmentcode.com"],
  env: { AUGMENT_COOKIE: AUGMENT_TEST_COOKIE },
  // nine days before the billing period of subscription.json ends
  recordedAt: "2026-03-31T12:00:00Z",
  scenarios: SCENARIOS,
  routes: [
    { method: "GET", path: "/api/credits", handle: credits },
    { method: "GET", path: "/api/subscription", handle: subscription },
    ...["/api/auth/session", "/api/session", "/api/user"].map((path) => ({ method: "GET" as const, path, handle: sessionEndpoint(path) })),
  ],
};

/** What the stand-in `auggie account status` does: print fixtures, then exit or hang. */
interface CliPlay {
  stdout?: string;
  stderr?: string;
  exit?: number;
  hang?: boolean;
}

const CLI_PLAYS: Record<string, CliPlay> = {
  ok: { stdout: "auggie-legacy.txt" },
  boxed: { stdout: "auggie-boxed.txt" },
  colored: { stdout: "auggie-colored.txt" },
  not_authenticated: { stdout: "auggie-not-authenticated.txt", exit: 1 },
  empty: {},
  crash: { stderr: "auggie-crash.txt", exit: 2 },
  unknown_format: { stdout: "auggie-welcome.txt" },
  hang: { hang: true },
  status_then_hang: { stdout: "auggie-legacy.txt", hang: true },
};

export const AUGGIE_SCENARIOS = Object.keys(CLI_PLAYS);
/** Beside the stand-in: the pid of the child a hanging one waits on, its arguments and the PATH it was given. */
export const AUGGIE_FILES = { childPid: "auggie-child.pid", calls: "auggie.calls", path: "auggie.path" };

/**
 * Writes a stand-in `auggie` into `dir` (a POSIX shell script that answers `account status` only,
 * printing the scenario's fixtures kept beside it) and returns its path; put `dir` first on PATH.
 */
export function writeFakeAuggie(dir: string, scenario = "ok"): string {
  const play = CLI_PLAYS[scenario];
  if (!play) throw new Error(`Unknown auggie scenario "${scenario}"; known: ${AUGGIE_SCENARIOS.join(", ")}`);
  mkdirSync(dir, { recursive: true });
  for (const stream of ["stdout", "stderr"] as const) {
    const file = join(dir, `auggie.${stream}`);
    rmSync(file, { force: true });
    const name = play[stream];
    if (name) writeFileSync(file, fixture(name));
  }
  const script = [
    "#!/bin/sh",
    `# auggie stand-in (quotabar simulator), scenario ${scenario}`,
    'here=$(dirname "$0")',
    `printf '%s\\n' "$*" >> "$here/${AUGGIE_FILES.calls}"`,
    `printf '%s\\n' "$PATH" > "$here/${AUGGIE_FILES.path}"`,
    'if [ "$*" != "account status" ]; then echo "auggie: unknown command: $*" >&2; exit 2; fi',
    'if [ -f "$here/auggie.stdout" ]; then cat "$here/auggie.stdout"; fi',
    'if [ -f "$here/auggie.stderr" ]; then cat "$here/auggie.stderr" >&2; fi',
    // a child in the same process group: a test sees the whole group killed
    ...(play.hang ? [`sleep 600 & echo $! > "$here/${AUGGIE_FILES.childPid}"`, "wait"] : []),
    `exit ${play.exit ?? 0}`,
    "",
  ].join("\n");
  const path = join(dir, "auggie");
  writeFileSync(path, script);
  chmodSync(path, 0o755);
  return path;
}
