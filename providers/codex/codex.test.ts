import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { QuotabarError } from "../../domain/errors.js";
import { decodeJson } from "../kit/index.js";
import { createQuotabar } from "../../index.js";
import { ProviderSimulator, shiftDates } from "../../simulator/server.js";
import { openaiStatusSim } from "../../simulator/status-pages.js";
import { codexHome, signInOf } from "./credentials.js";
import { codexSnapshot, planName, type CodexReading, type CodexWindow } from "./policy.js";
import {
  CODEX_SIM,
  codexApiKeyAuthJson,
  codexAuthJson,
  codexHomeIn,
  codexUpstream,
  unsignedJwt,
  writeCodexAuth,
  writeFakeCodexCli,
  writeSessionLog,
  type AppServerScenario,
} from "./simulator.js";
import { readSessionLogs } from "./wire-log.js";
import { readingOfUsage, UsageSchema } from "./wire-usage.js";
import { newestSessionLogs } from "./session-logs.js";
import { stillRunning } from "../../test/helpers/processes.js";

type Usage = Awaited<ReturnType<ReturnType<typeof createQuotabar>["usage"]>>["providers"][number];

let sim: ProviderSimulator;
const homes: string[] = [];
beforeAll(async () => {
  sim = await ProviderSimulator.start({ providers: [codexUpstream, openaiStatusSim] });
});
afterEach(() => {
  sim.setScenario("codex", "ok");
  sim.setScenario("status-openai", "incidentio");
  sim.requests.length = 0;
});
afterAll(async () => {
  await sim.stop();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** A fresh HOME holding nothing yet. */
function freshHome(): string {
  const home = mkdtempSync(join(tmpdir(), "quotabar-codex-"));
  homes.push(home);
  return home;
}

/** A HOME whose ~/.codex holds auth.json with this text. */
function homeWithAuth(text = codexAuthJson()): { home: string; auth: string } {
  const home = freshHome();
  return { home, auth: writeCodexAuth(codexHomeIn(home), text) };
}

/** No codex on PATH: only the system's tools. */
const NO_CLI = "/usr/bin:/bin";

async function usage(
  home: string,
  options: {
    source?: string;
    env?: Record<string, string | undefined>;
    path?: string;
    timeoutMs?: number;
    configPath?: string;
    status?: boolean;
  } = {},
): Promise<Usage> {
  const quotabar = createQuotabar({
    env: { ...sim.env(), HOME: home, PATH: options.path ?? NO_CLI, QUOTABAR_SECRET_STORE: "memory", ...options.env },
    ...(options.configPath ? { configPath: options.configPath } : {}),
  });
  const doc = await quotabar.usage({
    providers: ["codex"],
    timeoutMs: options.timeoutMs ?? 8_000,
    ...(options.source ? { source: options.source } : {}),
    ...(options.status ? { status: true } : {}),
  });
  return doc.providers[0]!;
}

/** The file's bytes and modification time, to prove a run left it alone. */
const fingerprint = (path: string) => ({ bytes: readFileSync(path).toString("base64"), mtimeMs: statSync(path).mtimeMs });

const usageRequests = () => sim.requests.filter((r) => r.path === "/backend-api/wham/usage");

describe("codex through the library: ChatGPT's usage answer with Codex's own sign-in", () => {
  it("reads a Plus account: session and weekly windows by their length, plan, email, credits and extra limits", async () => {
    const { home, auth } = homeWithAuth();
    const before = fingerprint(auth);
    const result = await usage(home);
    expect(result).toMatchObject({ ok: true, source: "oauth", plan: "Plus", stale: false, error: null });
    expect(result.primary).toMatchObject({
      label: "Session",
      usedPercent: 2,
      windowMinutes: 300,
      resetsAt: "2026-02-28T01:35:45.000Z",
      note: null,
    });
    expect(result.secondary).toMatchObject({
      label: "Weekly",
      usedPercent: 33,
      windowMinutes: 10_080,
      resetsAt: "2026-03-03T17:35:06.000Z",
    });
    expect(result.tertiary).toBeNull();
    expect(result.details).toEqual([
      { label: "Account", value: "ada@example.com" },
      { label: "Credits", value: "0 credits" },
      { label: "Code review", value: "0% weekly" },
      { label: "GPT-5.3-Codex-Spark", value: "0% 5-hour, 0% weekly" },
      { label: "Limit resets available", value: "2" },
    ]);
    const [request] = usageRequests();
    expect(request?.headers.authorization).toBe(`Bearer ${CODEX_SIM.accessToken}`);
    expect(request?.headers["chatgpt-account-id"]).toBe(CODEX_SIM.accountId);
    expect(fingerprint(auth)).toEqual(before);
  });

  it("labels a free plan's only window, sent as the primary one, weekly", async () => {
    sim.setScenario("codex", "free");
    const result = await usage(homeWithAuth().home);
    expect(result).toMatchObject({ ok: true, plan: "Free", secondary: null, tertiary: null });
    expect(result.primary).toMatchObject({ label: "Weekly", usedPercent: 64, windowMinutes: 10_080, resetsAt: "2026-08-30T20:57:36.000Z" });
    expect(result.details).toContainEqual({ label: "Credits", value: "0 credits" }); // "0E-10"
  });

  it("reads an exhausted Pro account with credits and a monthly credit pool", async () => {
    sim.setScenario("codex", "pro_limit");
    const result = await usage(homeWithAuth().home);
    expect(result).toMatchObject({ ok: true, plan: "Pro 20x" });
    expect(result.primary).toMatchObject({ label: "Session", usedPercent: 100 });
    expect(result.secondary).toMatchObject({ label: "Weekly", usedPercent: 63 });
    expect(result.tertiary).toMatchObject({ label: "Monthly credits", used: 7761, limit: 100_000, unit: "credits", usedPercent: 7.76 });
    expect(result.details).toContainEqual({ label: "Credits", value: "820.7 credits" });
    expect(result.details).not.toContainEqual(expect.objectContaining({ label: "Limit resets available" }));
  });

  it("takes the account id from the id token when auth.json has none, and sends it", async () => {
    const result = await usage(homeWithAuth(codexAuthJson({ accountId: false })).home);
    expect(result.ok).toBe(true);
    expect(usageRequests()[0]?.headers["chatgpt-account-id"]).toBe(CODEX_SIM.accountId);
  });

  it("never sends an expired token: expired, a hint to run codex, the last good snapshot served stale", async () => {
    const { home, auth } = homeWithAuth();
    const good = await usage(home);
    expect(good.ok).toBe(true);
    writeFileSync(auth, codexAuthJson({ expired: true }));
    const before = fingerprint(auth);
    sim.requests.length = 0;
    const result = await usage(home);
    expect(result).toMatchObject({
      ok: false,
      stale: true,
      error: { code: "expired", message: `Codex's sign-in ${auth} expired at 2023-11-14T22:13:20.000Z` },
    });
    expect(result.error?.hint).toContain("Run `codex` once");
    expect(result.primary).toEqual(good.primary);
    expect(usageRequests()).toHaveLength(0);
    expect(fingerprint(auth)).toEqual(before);
  });

  it("says a refused sign-in is unauthorized, with the hint to run codex, and never tries to renew it", async () => {
    sim.setScenario("codex", "unauthorized");
    const { home, auth } = homeWithAuth();
    const before = fingerprint(auth);
    const result = await usage(home);
    expect(result).toMatchObject({
      ok: false,
      error: { code: "unauthorized", message: "Codex's ChatGPT sign-in was refused (HTTP 401)." },
    });
    expect(result.error?.hint).toContain("codex");
    expect(sim.requests.every((r) => r.path === "/backend-api/wham/usage")).toBe(true);
    expect(fingerprint(auth)).toEqual(before);
  });

  it("says an API-key login has no ChatGPT quota, and never prints the key", async () => {
    const result = await usage(homeWithAuth(codexApiKeyAuthJson()).home);
    expect(result).toMatchObject({ ok: false, error: { code: "not_configured" } });
    expect(result.error?.message).toMatch(/signed in with an API key .*no Codex quota/);
    expect(JSON.stringify(result)).not.toContain(CODEX_SIM.apiKey);
    expect(usageRequests()).toHaveLength(0);
  });

  it("is a parse error naming the field when the answer is not what Codex gets", async () => {
    sim.setScenario("codex", "malformed");
    const result = await usage(homeWithAuth().home);
    expect(result.error).toMatchObject({ code: "parse" });
    expect(result.error?.message).toContain("rate_limit.primary_window.used_percent");
  });

  it("without auth.json says where it looked", async () => {
    const home = freshHome();
    const result = await usage(home);
    expect(result.error).toMatchObject({
      code: "not_configured",
      message: `Codex is not signed in: no ${join(home, ".codex", "auth.json")}.`,
    });
  });
});

describe("codex's status: status.openai.com, an incident.io page, its Codex group", () => {
  it("is operational when the Codex group is, and names the Codex incident when there is one", async () => {
    const { home } = homeWithAuth();
    expect((await usage(home, { status: true })).status).toMatchObject({ indicator: "none", url: "https://status.openai.com" });
    sim.setScenario("status-openai", "incidentio_incident");
    const status = (await usage(homeWithAuth().home, { status: true })).status; // a fresh HOME: no status kept from the first run
    expect(status).toMatchObject({ indicator: "major", description: "Codex Web: Partial outage; CLI: Degraded performance" });
    expect(status?.incidents).toEqual([
      {
        name: "Increased Codex task failures",
        impact: "minor",
        url: "https://status.openai.com/incidents/01JF3Q8V2X6Z9B1D4F7H0K3M5P",
        updatedAt: "2026-11-20T10:05:47.610Z",
      },
    ]);
  });
});

describe("codex's sign-in file", () => {
  it("names the file, never its content, when it is not JSON, a directory, a FIFO or 10 MB", async () => {
    const secret = "rt_leak_me_0123456789abcdef";
    const cases: [string, (path: string) => void, RegExp][] = [
      ["not JSON", (path) => writeFileSync(path, `{"tokens": {"refresh_token": "${secret}"`), /is not JSON/],
      ["a directory", (path) => mkdirSync(path), /is a directory/],
      ["a FIFO", (path) => execFileSync("mkfifo", [path]), /is not a regular file/],
      ["10 MB", (path) => writeFileSync(path, `{"x":"${secret}${"a".repeat(10 << 20)}"}`), /is too large/],
    ];
    for (const [what, make, message] of cases) {
      const home = freshHome();
      mkdirSync(codexHomeIn(home));
      const path = join(codexHomeIn(home), "auth.json");
      make(path);
      const result = await usage(home);
      expect(result.error?.code, what).toBe("not_configured");
      expect(result.error?.message, what).toMatch(message);
      expect(result.error?.message, what).toContain(path);
      expect(JSON.stringify(result), what).not.toContain(secret);
    }
  });

  it("reads tokens in camelCase too, and the account id and expiry from the JWTs", () => {
    const accessToken = unsignedJwt({ exp: 2_000_000_000, "https://api.openai.com/auth": { chatgpt_account_id: "acct-1" } });
    expect(signInOf({ tokens: { accessToken } }, "/x/auth.json")).toEqual({
      accessToken,
      accountId: "acct-1",
      idToken: null,
      expiresAtMs: 2_000_000_000_000,
    });
    const none = signInOf({}, "/x/auth.json");
    expect("problem" in none && none.problem()).toMatchObject({
      code: "not_configured",
      message: expect.stringMatching(/holds no ChatGPT sign-in/),
    });
  });

  it("lives in the entry's codexHome, else $CODEX_HOME, else ~/.codex", async () => {
    const env = { HOME: "/home/ada" };
    expect(codexHome({ env, entry: { id: "codex" } })).toBe("/home/ada/.codex");
    expect(codexHome({ env: { ...env, CODEX_HOME: " /srv/codex " }, entry: { id: "codex" } })).toBe("/srv/codex");
    expect(codexHome({ env: { ...env, CODEX_HOME: "/srv/codex" }, entry: { id: "codex", codexHome: "~/work-codex" } })).toBe(
      "/home/ada/work-codex",
    );

    // end to end: the config entry's home is read, the default one is not
    const home = freshHome();
    const work = join(home, "work-codex");
    writeCodexAuth(work);
    const configPath = join(home, "config.json");
    writeFileSync(configPath, JSON.stringify({ version: 1, providers: [{ id: "codex", codexHome: work }] }));
    expect(await usage(home, { configPath })).toMatchObject({ ok: true, source: "oauth" });
    const viaEnv = freshHome();
    writeCodexAuth(join(viaEnv, "elsewhere"));
    expect(await usage(viaEnv, { env: { CODEX_HOME: join(viaEnv, "elsewhere") } })).toMatchObject({ ok: true });
  });
});

/** A log as if Codex wrote it `minutesAgo` minutes ago (the fixture's times moved to then). */
const movedTo = (minutesAgo: number) => (text: string, recordedAt?: string) =>
  shiftDates(text, new Date(recordedAt!), new Date(Date.now() - minutesAgo * 60_000));

describe("codex's session logs (--source local, no network)", () => {
  it("reads the newest rate limits Codex wrote, with their age, and makes no request", async () => {
    const home = freshHome();
    writeSessionLog(codexHomeIn(home), "rollout.jsonl", movedTo(10));
    const result = await usage(home, { source: "local" });
    expect(result).toMatchObject({ ok: true, source: "local", plan: "Plus" });
    expect(result.primary).toMatchObject({ label: "Session", usedPercent: 14, windowMinutes: 300, note: null });
    expect(result.secondary).toMatchObject({ label: "Weekly", usedPercent: 41, windowMinutes: 10_080 });
    // the fixture's session window resets 3 h 59 min 38 s after its token_count line
    const line = Date.now() - 10 * 60_000 - 368; // the last line is 0.227 s after the token_count one
    expect(Math.abs(Date.parse(result.primary!.resetsAt!) - (line + 14_378_000))).toBeLessThan(5_000);
    expect(result.details).toContainEqual({ label: "From Codex's session log", value: "10 min old" });
    expect(sim.requests).toHaveLength(0);
  });

  it("shows a window whose reset has passed since Codex wrote it as reset (0 %)", async () => {
    const home = freshHome();
    writeSessionLog(codexHomeIn(home), "rollout.jsonl"); // as recorded, in August 2026
    const result = await usage(home, { source: "local" });
    expect(result.primary).toMatchObject({ label: "Session", usedPercent: 0, resetsAt: null, note: "Reset since Codex last reported it" });
    expect(result.secondary).toMatchObject({ label: "Weekly", usedPercent: 0, resetsAt: null });
  });

  it("counts an older log's resets_in_seconds from the line's own time, and passes over a token_count without rate limits", async () => {
    const home = freshHome();
    const path = writeSessionLog(codexHomeIn(home), "rollout-old.jsonl");
    const reading = await readSessionLogs([{ path, mtimeMs: statSync(path).mtimeMs }]);
    expect(reading.windows).toEqual([
      { usedPercent: 22.5, windowMinutes: 300, resetsAt: "2025-10-02T19:11:10.000Z", slot: "primary" },
      { usedPercent: 7, windowMinutes: 10_080, resetsAt: "2025-10-08T11:34:30.000Z", slot: "secondary" },
    ]);
    expect(reading.loggedAt).toBe("2025-10-02T16:41:10.000Z");
  });

  it("takes the newest log by time, and the one before when the newest has no rate limits yet", async () => {
    const home = freshHome();
    const older = writeSessionLog(codexHomeIn(home), "rollout.jsonl", movedTo(30));
    const fresh = join(older, "..", "rollout-2099-fresh.jsonl");
    writeFileSync(fresh, `${readFileSync(join(import.meta.dirname, "fixtures", "rollout.jsonl"), "utf8").split("\n")[0]}\n`);
    const logs = await newestSessionLogs(join(codexHomeIn(home), "sessions"));
    expect(logs.map((log) => log.path)).toEqual([fresh, older]);
    expect((await usage(home, { source: "local" })).primary).toMatchObject({ usedPercent: 14 });
  });

  it("looks only into the newest day folders, never at every session", async () => {
    const home = freshHome();
    const sessions = join(codexHomeIn(home), "sessions");
    const ancient = join(sessions, "2024", "01", "01");
    mkdirSync(ancient, { recursive: true });
    writeFileSync(join(ancient, "rollout-old.jsonl"), readFileSync(join(import.meta.dirname, "fixtures", "rollout-old.jsonl")));
    for (const day of ["2026/11/01", "2026/11/02"]) {
      mkdirSync(join(sessions, day), { recursive: true });
      writeFileSync(join(sessions, day, "rollout-x.jsonl"), '{"timestamp":"2026-11-01T00:00:00Z","type":"session_meta","payload":{}}\n');
    }
    expect((await newestSessionLogs(sessions)).every((log) => !log.path.includes("2024"))).toBe(true);
    expect((await usage(home, { source: "local" })).error).toMatchObject({
      code: "not_configured",
      message: "Codex's newest session logs hold no rate limits yet.",
    });
  });

  it("reads the rate limits at the end of a large log without reading it all", async () => {
    const home = freshHome();
    const path = writeSessionLog(codexHomeIn(home), "rollout.jsonl", movedTo(1));
    const text = readFileSync(path, "utf8");
    const filler = `{"timestamp":"2026-01-01T00:00:00Z","type":"response_item","payload":{"text":"${"x".repeat(4000)}"}}\n`;
    writeFileSync(path, filler.repeat(5000) + text);
    const result = await usage(home, { source: "local" });
    expect(result.primary).toMatchObject({ usedPercent: 14 });
    appendFileSync(
      path,
      '{"timestamp":"2026-01-01T00:00:00Z","type":"event_msg","payload":{"type":"token_count","rate_limits":{"primary":{"used_percent":-3}}}}\n',
    );
    expect((await usage(home, { source: "local" })).error).toMatchObject({
      code: "parse",
      message: expect.stringContaining("primary.used_percent"),
    });
  });

  it("without logs says where it looked; in auto mode the missing sign-in is what is told", async () => {
    const home = freshHome();
    expect((await usage(home, { source: "local" })).error).toMatchObject({
      code: "not_configured",
      message: `No Codex session logs under ${join(home, ".codex", "sessions")}.`,
    });
    const listing = await createQuotabar({ env: { HOME: home, PATH: NO_CLI } }).listProviders();
    expect(listing.find((p) => p.id === "codex")).toMatchObject({ credentialsFound: false });
    writeSessionLog(codexHomeIn(home), "rollout.jsonl");
    const found = await createQuotabar({ env: { HOME: home, PATH: NO_CLI } }).listProviders();
    expect(found.find((p) => p.id === "codex")).toMatchObject({ credentialsFound: true, enabled: true });
  });
});

/** A HOME with a stand-in codex in its bin/, first on PATH. */
function homeWithCli(scenario: AppServerScenario): { home: string; bin: string; path: string } {
  const home = freshHome();
  const bin = join(home, "bin");
  writeFakeCodexCli(bin, scenario);
  return { home, bin, path: `${bin}:${NO_CLI}` };
}

describe("codex app-server (--source cli), with a stand-in codex on PATH", () => {
  it("reads the rate limits and the account over JSON-RPC, in the account's Codex home", async () => {
    const { home, bin, path } = homeWithCli("ok");
    const result = await usage(home, { source: "cli", path });
    expect(result).toMatchObject({ ok: true, source: "cli", plan: "Plus" });
    expect(result.primary).toMatchObject({ label: "Session", usedPercent: 31, windowMinutes: 300, resetsAt: "2026-08-29T11:50:10.000Z" });
    expect(result.secondary).toMatchObject({ label: "Weekly", usedPercent: 26, windowMinutes: 10_080 });
    expect(result.details).toEqual([
      { label: "Account", value: "ada@example.com" },
      { label: "Credits", value: "0 credits" },
      { label: "GPT-5.3-Codex-Spark", value: "12% 5-hour" },
    ]);
    expect(readFileSync(join(bin, "codex-home.seen"), "utf8").trim()).toBe(join(home, ".codex"));
  });

  it("passes over notifications and lines that are not JSON-RPC", async () => {
    const { home, path } = homeWithCli("noisy");
    expect(await usage(home, { source: "cli", path })).toMatchObject({ ok: true, primary: { usedPercent: 31 } });
  });

  it("reads the usage body an older CLI quotes when it cannot decode a new plan name", async () => {
    const { home, path } = homeWithCli("decode_mismatch");
    const result = await usage(home, { source: "cli", path });
    expect(result).toMatchObject({ ok: true, source: "cli", plan: "Plus" }); // account/read names the plan
    expect(result.primary).toMatchObject({ label: "Session", usedPercent: 100 });
  });

  it("says to run codex when the CLI is not signed in", async () => {
    const { home, path } = homeWithCli("not_signed_in");
    expect((await usage(home, { source: "cli", path })).error).toMatchObject({
      code: "unauthorized",
      message: "Codex CLI is not signed in with ChatGPT: codex account authentication required to read rate limits",
    });
  });

  it("reports a CLI that exits at once with its first stderr line", async () => {
    const { home, path } = homeWithCli("crash");
    expect((await usage(home, { source: "cli", path })).error).toMatchObject({
      code: "upstream",
      message: "codex app-server exited without answering: Error: failed to load config: ~/.codex/config.toml: invalid type",
    });
  });

  it("ends a CLI that never answers within the budget, its whole process group", async () => {
    const { home, bin, path } = homeWithCli("hang");
    const result = await usage(home, { source: "cli", path, timeoutMs: 1_500 });
    expect(result.error).toMatchObject({ code: "timeout", message: "Codex CLI timed out." });
    const child = Number(readFileSync(join(bin, "codex-child.pid"), "utf8"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stillRunning(child)).toBe(false);
  });

  it("says it is not installed when there is no codex", async () => {
    const result = await usage(freshHome(), { source: "cli" });
    expect(result.error).toMatchObject({ code: "not_installed", message: "Codex CLI not found." });
    expect(result.error?.hint).toContain("npm i -g @openai/codex");
  });
});

describe("codex in auto mode: oauth, then cli, then local, and it says which answered", () => {
  it("hands a failing chatgpt.com over to the CLI, but tells an expired or refused sign-in as it is", async () => {
    sim.setScenario("codex", "malformed");
    const { home, path } = homeWithCli("ok");
    writeCodexAuth(codexHomeIn(home));
    writeSessionLog(codexHomeIn(home), "rollout.jsonl", movedTo(5));
    expect(await usage(home, { path })).toMatchObject({ ok: true, source: "cli" });
    sim.setScenario("codex", "unauthorized");
    expect(await usage(home, { path })).toMatchObject({ ok: false, error: { code: "unauthorized" } });
    writeCodexAuth(codexHomeIn(home), codexAuthJson({ expired: true }));
    expect(await usage(home, { path })).toMatchObject({ ok: false, error: { code: "expired" } });
  });

  it("reads the session log when there is neither a sign-in nor a CLI", async () => {
    const home = freshHome();
    writeSessionLog(codexHomeIn(home), "rollout.jsonl", movedTo(5));
    expect(await usage(home)).toMatchObject({ ok: true, source: "local", primary: { usedPercent: 14 } });
  });

  it("with an API-key login, reads Codex's session log instead", async () => {
    const { home } = homeWithAuth(codexApiKeyAuthJson());
    writeSessionLog(codexHomeIn(home), "rollout.jsonl", movedTo(5));
    expect(await usage(home)).toMatchObject({ ok: true, source: "local" });
  });

  it("with an expired sign-in and nothing else, says it expired", async () => {
    const { home, auth } = homeWithAuth(codexAuthJson({ expired: true }));
    const before = fingerprint(auth);
    expect((await usage(home)).error).toMatchObject({ code: "expired" });
    expect(fingerprint(auth)).toEqual(before);
  });
});

describe("codex policy", () => {
  const now = new Date("2026-08-20T10:00:00Z");
  const reading = (windows: CodexWindow[], extra: Partial<CodexReading> = {}): CodexReading => ({
    plan: null,
    windows,
    credits: null,
    monthlyCredits: null,
    extraLimits: [],
    resetCredits: null,
    email: null,
    loggedAt: null,
    ...extra,
  });
  const window = (windowMinutes: number | null, slot: "primary" | "secondary", usedPercent = 10): CodexWindow => ({
    usedPercent,
    windowMinutes,
    resetsAt: "2026-08-21T00:00:00.000Z",
    slot,
  });

  it("decides session and week by length, never by slot", () => {
    const swapped = codexSnapshot(reading([window(10_080, "primary", 70), window(300, "secondary", 5)]), now);
    expect(swapped.primary).toMatchObject({ label: "Session", usedPercent: 5 });
    expect(swapped.secondary).toMatchObject({ label: "Weekly", usedPercent: 70 });
    const unknown = codexSnapshot(reading([window(null, "secondary"), window(null, "primary", 20)]), now);
    expect([unknown.primary?.label, unknown.secondary?.label]).toEqual(["Session", "Weekly"]);
    const month = codexSnapshot(reading([window(43_200, "primary"), window(1_440, "secondary")]), now);
    expect([month.primary?.label, month.secondary?.label]).toEqual(["Monthly", "1-day"]);
  });

  it("names plans as people read them", () => {
    expect(
      ["plus", "pro", "prolite", "free", "enterprise_cbp_usage_based", "k12", "free_workspace", "unknown", null].map(planName),
    ).toEqual(["Plus", "Pro 20x", "Pro 5x", "Free", "Enterprise CBP Usage Based", "K12", "Free Workspace", null, null]);
  });

  it("shows unlimited credits, and no credits when the account has none", () => {
    const credits = (value: CodexReading["credits"]) => codexSnapshot(reading([], { credits: value }), now).details;
    expect(credits({ hasCredits: true, unlimited: true, balance: null })).toEqual([{ label: "Credits", value: "Unlimited" }]);
    expect(credits({ hasCredits: false, unlimited: false, balance: null })).toEqual([{ label: "Credits", value: "None" }]);
  });
});

describe("codex's reading of mutated usage answers", () => {
  const fixtures = ["usage-plus.json", "usage-free.json", "usage-pro.json"].map((name) =>
    JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", name), "utf8")),
  );
  const paths = (value: unknown, prefix: (string | number)[] = []): (string | number)[][] =>
    value === null || typeof value !== "object"
      ? [prefix]
      : [prefix, ...Object.entries(value).flatMap(([key, inner]) => paths(inner, [...prefix, Array.isArray(value) ? Number(key) : key]))];
  const replaced = (body: unknown, path: (string | number)[], value: unknown): unknown => {
    if (path.length === 0) return value;
    const copy = (Array.isArray(body) ? [...body] : { ...(body as object) }) as Record<string | number, unknown>;
    copy[path[0]!] = replaced(copy[path[0]!], path.slice(1), value);
    return copy;
  };
  const hostile = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(-1, 101, 1e308, "NaN", "-5", "0E-10", "", null, 0, "x".repeat(10_000)),
  );

  it("is a snapshot with every percent in 0..100 and no negative count, or a parse error", () => {
    const now = new Date("2026-08-20T10:00:00Z");
    const mutated = fc
      .nat({ max: fixtures.length - 1 })
      .chain((which) =>
        fc
          .tuple(fc.constantFrom(...paths(fixtures[which])), hostile)
          .map(([path, value]) => JSON.stringify(replaced(fixtures[which], path, value))),
      );
    fc.assert(
      fc.property(mutated, (body) => {
        try {
          const snapshot = codexSnapshot(readingOfUsage(decodeJson(body, UsageSchema, "Codex"), now), now);
          for (const meter of [snapshot.primary, snapshot.secondary, snapshot.tertiary]) {
            if (!meter) continue;
            if (meter.usedPercent !== null) expect(meter.usedPercent).toBeGreaterThanOrEqual(0);
            if (meter.usedPercent !== null) expect(meter.usedPercent).toBeLessThanOrEqual(100);
            for (const n of [meter.used, meter.limit]) if (n !== null) expect(Number.isFinite(n) && n >= 0).toBe(true);
          }
          expect((snapshot.plan ?? "").length).toBeLessThanOrEqual(60);
        } catch (error) {
          expect(error).toBeInstanceOf(QuotabarError);
          expect((error as QuotabarError).code).toBe("parse");
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe("codex's demo home", () => {
  it("lays out each scenario's files: a sign-in, an expired one, an API key, session logs", async () => {
    for (const [scenario, auth, logs] of [
      ["ok", true, false],
      ["free", true, false],
      ["local", false, true],
      ["api_key", true, false],
    ] as const) {
      const home = freshHome();
      await codexUpstream.seedHome!(home, scenario, (text) => text);
      const codex = codexHomeIn(home);
      expect(statSync(join(codex, "auth.json"), { throwIfNoEntry: false }) !== undefined, scenario).toBe(auth);
      expect((await newestSessionLogs(join(codex, "sessions"))).length > 0, scenario).toBe(logs);
    }
    const home = freshHome();
    await codexUpstream.seedHome!(home, "ok", (text) => text);
    utimesSync(join(codexHomeIn(home), "auth.json"), new Date(0), new Date(0));
    expect((statSync(join(codexHomeIn(home), "auth.json")).mode & 0o777).toString(8)).toBe("600");
  });
});
