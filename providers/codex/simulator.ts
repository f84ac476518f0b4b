import { chmodSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FixtureDates, SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { bearer } from "../../simulator/auth.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

/** An unsigned JWT with these claims (Codex's tokens are JWTs; quotabar reads their claims, never checks them). */
export function unsignedJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "RS256", typ: "JWT" })}.${part(claims)}.c2ltdWxhdG9yLXNpZ25hdHVyZQ`;
}

const AUTH = "https://api.openai.com/auth";
/** 2100-01-01: the simulator's sign-in never expires; the `expired` scenario's did in 2023. */
const FAR_EXP = 4_102_444_800;
const PAST_EXP = 1_700_000_000;

export const CODEX_SIM = {
  accountId: "8a3f2c90-1b2c-4d5e-9f8a-0b1c2d3e4f5a",
  email: "ada@example.com",
  accessToken: unsignedJwt({ exp: FAR_EXP, [AUTH]: { chatgpt_account_id: "8a3f2c90-1b2c-4d5e-9f8a-0b1c2d3e4f5a" } }),
  expiredToken: unsignedJwt({ exp: PAST_EXP, [AUTH]: { chatgpt_account_id: "8a3f2c90-1b2c-4d5e-9f8a-0b1c2d3e4f5a" } }),
  idToken: unsignedJwt({
    email: "ada@example.com",
    [AUTH]: { chatgpt_plan_type: "plus", chatgpt_account_id: "8a3f2c90-1b2c-4d5e-9f8a-0b1c2d3e4f5a" },
  }),
  refreshToken: "rt_8Kq2VbYx1Lw0ZpR4-simulator",
  apiKey: "sk-proj-3xAMPLEkey-simulator-0123456789",
  /** A second ChatGPT account (the demo's `personal` Codex home), on the free plan. */
  personal: {
    accountId: "5d7e9f10-2a3b-4c5d-8e9f-a0b1c2d3e4f6",
    accessToken: unsignedJwt({ exp: FAR_EXP, [AUTH]: { chatgpt_account_id: "5d7e9f10-2a3b-4c5d-8e9f-a0b1c2d3e4f6" } }),
    idToken: unsignedJwt({
      email: "ada.personal@example.com",
      [AUTH]: { chatgpt_plan_type: "free", chatgpt_account_id: "5d7e9f10-2a3b-4c5d-8e9f-a0b1c2d3e4f6" },
    }),
    refreshToken: "rt_5d7ePersonal0Zx-simulator",
  },
} as const;

/** auth.json of the second (free) account, for a second Codex home. */
export function codexPersonalAuthJson(): string {
  const { personal } = CODEX_SIM;
  const tokens = {
    id_token: personal.idToken,
    access_token: personal.accessToken,
    refresh_token: personal.refreshToken,
    account_id: personal.accountId,
  };
  return `${JSON.stringify({ OPENAI_API_KEY: null, tokens, last_refresh: "2026-08-20T09:12:33.123456Z" }, null, 2)}\n`;
}

/** auth.json as Codex writes it after a ChatGPT sign-in (pretty-printed), with the simulator's tokens. */
export function codexAuthJson(options: { expired?: boolean; accountId?: boolean } = {}): string {
  const tokens: Record<string, string> = {
    id_token: CODEX_SIM.idToken,
    access_token: options.expired ? CODEX_SIM.expiredToken : CODEX_SIM.accessToken,
    refresh_token: CODEX_SIM.refreshToken,
  };
  if (options.accountId !== false) tokens.account_id = CODEX_SIM.accountId;
  return `${JSON.stringify({ OPENAI_API_KEY: null, tokens, last_refresh: "2026-08-20T09:12:33.123456Z" }, null, 2)}\n`;
}

/** auth.json of an API-key login: no ChatGPT plan, no quota. */
export const codexApiKeyAuthJson = () => `${JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: CODEX_SIM.apiKey }, null, 2)}\n`;

/** When each usage answer was recorded (reset_at - reset_after_seconds of its first window). */
const RECORDED_AT: Record<string, string> = {
  "usage-plus.json": "2026-02-27T21:54:46Z",
  "usage-free.json": "2026-08-26T05:15:43Z",
  "usage-pro.json": "2026-08-29T10:40:00Z",
};
/** When the session log's last line was written. */
const LOG_RECORDED_AT = "2026-08-20T09:14:32Z";

const USAGE: Record<string, string> = { ok: "usage-plus.json", free: "usage-free.json", pro_limit: "usage-pro.json" };

const json = (name: string, status = 200): SimReply => ({
  status,
  body: fixture(name),
  headers: { "content-type": "application/json" },
  ...(RECORDED_AT[name] ? { recordedAt: RECORDED_AT[name] } : {}),
});

function usage(request: SimRequest, scenario: string): SimReply {
  const token = bearer(request);
  if (token === CODEX_SIM.personal.accessToken && request.headers["chatgpt-account-id"] === CODEX_SIM.personal.accountId)
    return json("usage-free.json");
  const signedIn = token === CODEX_SIM.accessToken && request.headers["chatgpt-account-id"] === CODEX_SIM.accountId;
  if (!signedIn || scenario === "unauthorized") return json("unauthorized.json", 401);
  if (scenario === "malformed") return { body: '{"plan_type":"plus","rate_limit":{"primary_window":{"used_percent":"lots"}}}' };
  return json(USAGE[scenario] ?? "usage-plus.json");
}

/**
 * What each scenario lays out in the home: auth.json (a ChatGPT sign-in, an expired one, an API
 * key), or Codex's session logs. `ok`, `free`, `pro_limit`, `unauthorized` and `malformed` are
 * answered by chatgpt.com with the sign-in; `local` has no sign-in, only a session log.
 */
const HOMES: Record<string, { auth: "chatgpt" | "expired" | "apikey" | null; log: boolean }> = {
  ok: { auth: "chatgpt", log: false },
  free: { auth: "chatgpt", log: false },
  pro_limit: { auth: "chatgpt", log: false },
  expired: { auth: "expired", log: false },
  api_key: { auth: "apikey", log: false },
  local: { auth: null, log: true },
  unauthorized: { auth: "chatgpt", log: false },
  malformed: { auth: "chatgpt", log: false },
};

/** Codex's home in a HOME: ~/.codex. */
export const codexHomeIn = (home: string) => join(home, ".codex");

/** Writes auth.json into a Codex home (0600, as Codex does) and returns its path. */
export function writeCodexAuth(codexHome: string, text = codexAuthJson()): string {
  mkdirSync(codexHome, { recursive: true, mode: 0o700 });
  const path = join(codexHome, "auth.json");
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

/**
 * Writes a fixture session log where Codex keeps it (`sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`,
 * the day of its first line), its modification time that of its last line. Returns its path.
 */
export function writeSessionLog(codexHome: string, fixtureName = "rollout.jsonl", dates: FixtureDates = (text) => text): string {
  const text = dates(fixture(fixtureName), LOG_RECORDED_AT);
  const times = [...text.matchAll(/"timestamp":"([^"]+)"/g)].map((m) => m[1]!);
  const first = new Date(times[0]!);
  const last = new Date(times.at(-1)!);
  const pad = (n: number) => String(n).padStart(2, "0");
  const day = join(codexHome, "sessions", String(first.getFullYear()), pad(first.getMonth() + 1), pad(first.getDate()));
  mkdirSync(day, { recursive: true });
  const stamp = first.toISOString().slice(0, 19).replaceAll(":", "-");
  const path = join(day, `rollout-${stamp}-0198c7a2-5e1f-7c33-9a0b-2f4d6e8a1b3c.jsonl`);
  writeFileSync(path, text);
  utimesSync(path, last, last);
  return path;
}

/** A fixture's JSON on one line, for a shell `printf`. */
const oneLine = (json: string) => JSON.stringify(JSON.parse(json));

/** The stand-in `codex` answers `app-server` like this, per scenario. */
export type AppServerScenario = "ok" | "decode_mismatch" | "not_signed_in" | "crash" | "hang" | "noisy";

/**
 * A stand-in `codex` (a POSIX shell script) that plays `codex ... app-server`: one JSON object a
 * line on stdin, answered by method with the request's own id, as the real server does.
 */
export function fakeCodexCli(scenario: AppServerScenario): string {
  const answer = (result: string) => `printf '{"id":%s,"result":%s}\\n' "$id" '${oneLine(result)}'`;
  const failure = (error: string) => `printf '{"id":%s,"error":%s}\\n' "$id" '${oneLine(error)}'`;
  const limits =
    scenario === "decode_mismatch"
      ? failure(fixture("rpc-decode-mismatch.json"))
      : scenario === "not_signed_in"
        ? failure('{"code":-32600,"message":"codex account authentication required to read rate limits"}')
        : answer(fixture("rpc-rate-limits.json"));
  return [
    "#!/bin/sh",
    `# codex stand-in (quotabar simulator), app-server scenario ${scenario}`,
    'case " $* " in *" app-server "*) ;; *) echo "error: unexpected arguments: $*" >&2; exit 2;; esac',
    ...(scenario === "crash" ? ['echo "Error: failed to load config: ~/.codex/config.toml: invalid type" >&2', "exit 1"] : []),
    // a child in the same process group, so a test can see the whole group go
    ...(scenario === "hang" ? ['sleep 600 & echo $! > "$(dirname "$0")/codex-child.pid"', "wait", "exit 0"] : []),
    'echo "$CODEX_HOME" > "$(dirname "$0")/codex-home.seen"',
    "while IFS= read -r line; do",
    `  id=$(printf '%s' "$line" | sed -n 's/^{"id":\\([0-9][0-9]*\\),.*/\\1/p')`,
    ...(scenario === "noisy" ? ["  echo 'not json: starting up'", `  echo '{"method":"account/rateLimits/updated","params":{}}'`] : []),
    '  case "$line" in',
    `    *'"method":"initialize"'*) ${answer(fixture("rpc-initialize.json"))} ;;`,
    `    *'"method":"account/rateLimits/read"'*) ${limits} ;;`,
    `    *'"method":"account/read"'*) ${answer(fixture("rpc-account.json"))} ;;`,
    "  esac",
    "done",
    "",
  ].join("\n");
}

/** Writes the stand-in as `<dir>/codex` (executable) and returns its path; put `dir` first on PATH. */
export function writeFakeCodexCli(dir: string, scenario: AppServerScenario = "ok"): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "codex");
  writeFileSync(path, fakeCodexCli(scenario));
  chmodSync(path, 0o755);
  return path;
}

async function seedCodexHome(home: string, scenario: string, dates: FixtureDates): Promise<void> {
  const laid = HOMES[scenario] ?? HOMES.ok!;
  const codexHome = codexHomeIn(home);
  if (laid.auth === "apikey") writeCodexAuth(codexHome, codexApiKeyAuthJson());
  else if (laid.auth !== null) writeCodexAuth(codexHome, codexAuthJson({ expired: laid.auth === "expired" }));
  if (laid.log) writeSessionLog(codexHome, "rollout.jsonl", dates);
  writeCodexAuth(personalCodexHomeIn(home), codexPersonalAuthJson());
}

/** The demo's second Codex home (a free account): ~/.codex-personal. */
export const personalCodexHomeIn = (home: string) => join(home, ".codex-personal");

/**
 * Codex: GET chatgpt.com/backend-api/wham/usage with Codex's access token and ChatGPT-Account-Id;
 * its home (auth.json, session logs) is laid out by `seedHome`. No stand-in CLI is laid out for the
 * demo: tests put their own on PATH.
 */
export const codexUpstream: SimulatedUpstream = {
  id: "codex",
  origins: ["https://chatgpt.com"],
  env: {},
  scenarios: Object.keys(HOMES),
  recordedAt: RECORDED_AT["usage-plus.json"],
  routes: [{ method: "GET", path: "/backend-api/wham/usage", handle: usage }],
  seedHome: async (home, scenario, dates) => seedCodexHome(home, scenario, dates),
  accounts: (home) => [{ id: "codex", account: "personal", codexHome: personalCodexHomeIn(home) }],
};

/** Codex rollouts for benches and tests: per file a session of turns (a turn_context every five token_count events, a tool output between); the bytes written. */
export function writeCodexLogCorpus(root: string, files: number, events: number, now: Date): number {
  let bytes = 0;
  const models = ["gpt-5.5", "gpt-5-codex", "gpt-5.2-codex", "gpt-5.4", "gpt-5.1-codex-max"];
  for (let f = 0; f < files; f++) {
    const at = new Date(now.getTime() - (f % 30) * 86_400_000);
    const dir = join(
      root,
      "sessions",
      String(at.getUTCFullYear()),
      String(at.getUTCMonth() + 1).padStart(2, "0"),
      String(at.getUTCDate()).padStart(2, "0"),
    );
    mkdirSync(dir, { recursive: true });
    const total = [0, 0, 0, 0];
    const lines = [
      JSON.stringify({
        timestamp: at.toISOString(),
        type: "session_meta",
        payload: { id: `s${f}`, cwd: "/src/app", cli_version: "0.98.0" },
      }),
    ];
    for (let e = 0; e < events; e++) {
      const t = new Date(at.getTime() + e * 20_000).toISOString();
      if (e % 5 === 0)
        lines.push(
          JSON.stringify({ timestamp: t, type: "turn_context", payload: { cwd: "/src/app", model: models[(f + e) % models.length] } }),
        );
      lines.push(
        JSON.stringify({ timestamp: t, type: "response_item", payload: { type: "function_call_output", output: "x".repeat(600) } }),
      );
      const last = [1_000 + ((f * 7 + e * 13) % 50_000), 500 + ((f + e) % 900), 100 + ((f * 3 + e) % 4_000), (f + e) % 90];
      last[1] = Math.min(last[1] as number, last[0] as number);
      for (let i = 0; i < 4; i++) total[i] = (total[i] as number) + (last[i] as number);
      const usage = (v: number[]) => ({
        input_tokens: v[0],
        cached_input_tokens: v[1],
        output_tokens: v[2],
        reasoning_output_tokens: v[3],
        total_tokens: (v[0] as number) + (v[2] as number),
      });
      lines.push(
        JSON.stringify({
          timestamp: t,
          type: "event_msg",
          payload: { type: "token_count", info: { total_token_usage: usage(total), last_token_usage: usage(last) } },
        }),
      );
    }
    const text = `${lines.join("\n")}\n`;
    writeFileSync(join(dir, `rollout-${at.toISOString().slice(0, 19).replace(/:/g, "-")}-s${f}.jsonl`), text);
    bytes += text.length;
  }
  return bytes;
}
