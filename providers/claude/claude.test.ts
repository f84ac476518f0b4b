import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { QuotabarError } from "../../domain/errors.js";
import type { CredentialContext, FetchContext } from "../../ports/fetch-context.js";
import type { FetchStrategy } from "../../ports/fetch-strategy.js";
import { runCli } from "../../test/helpers/cli.js";
import { filesUnder } from "../../test/helpers/leaks.js";
import { useSimulator } from "../../test/helpers/harness.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import type * as Platform from "../kit/platform.js";
import { withRequestCooldown } from "../kit/request-cooldown.js";
import { shortHash } from "../kit/vendor-sign-in.js";
import { claudeSnapshot, costDetails, noUsage, planOf, type ClaudeReading, type ClaudeUsage } from "./policy.js";
import { CLAUDE_TEST_REFRESH_TOKEN, CLAUDE_TEST_SESSION, CLAUDE_TEST_TOKEN, seedClaudeHome, writeFakeClaude } from "./simulator.js";
import { findClaudeSignIn } from "./credentials.js";
import { resetTime } from "./usage-body.js";
import { cliReading, resetDate } from "./wire-cli.js";

// the Keychain is read on macOS only: tests choose the system, the default is the real one
const os = vi.hoisted(() => ({ platform: null as NodeJS.Platform | null }));
vi.mock("../kit/platform.js", async (importOriginal) => {
  const real = await importOriginal<typeof Platform>();
  return { hostOs: () => ({ ...real.hostOs(), ...(os.platform ? { platform: os.platform } : {}) }) };
});
afterEach(() => {
  os.platform = null;
});

const sim = useSimulator();
const homes: string[] = [];
afterAll(() => homes.forEach((home) => rmSync(home, { recursive: true, force: true })));

function freshHome(): string {
  const home = mkdtempSync(join(tmpdir(), "quotabar-claude-"));
  homes.push(home);
  return home;
}

/** The library on `home` (default: a fresh one holding only Claude Code's sign-in), with no cookie and no claude on PATH unless given. */
async function claude(options: { home?: string; env?: Record<string, string | undefined>; source?: string } = {}) {
  const home = options.home ?? freshHome();
  if (!options.home) seedClaudeHome(home);
  const env = { CLAUDE_COOKIE: undefined, PATH: "/usr/bin:/bin", ...options.env, HOME: home };
  const doc = await sim.quotabar(env).usage({ providers: ["claude"], ...(options.source ? { source: options.source } : {}) });
  return { usage: doc.providers[0]!, home };
}

const usageRequests = () => sim.sim.requests.filter((r) => r.path === "/api/oauth/usage");
/** Forget the cooldown file but keep the last good snapshot: as if a minute had passed. */
function minuteLater(home: string): void {
  rmSync(join(home, ".cache", "quotabar", "cooldown"), { recursive: true, force: true });
}

describe("claude OAuth with Claude Code's sign-in (a fresh HOME holding only ~/.claude/.credentials.json)", () => {
  it("maps the session, the week and Sonnet to meters, extra usage and the account to details, the plan from the sign-in", async () => {
    const { usage } = await claude();
    expect(usage).toMatchObject({ ok: true, source: "oauth", plan: "Max 20x", stale: false, error: null });
    expect(usage.primary).toMatchObject({ label: "Session", usedPercent: 12.5, resetsAt: "2026-08-21T17:00:00.414Z", windowMinutes: 300 });
    expect(usage.secondary).toMatchObject({ label: "Weekly", usedPercent: 30, resetsAt: "2026-08-25T09:00:00.414Z", windowMinutes: 10080 });
    expect(usage.tertiary).toMatchObject({ label: "Sonnet", usedPercent: 5, windowMinutes: 10080 });
    expect(usage.details).toEqual([
      { label: "Extra usage", value: "$5.20 of $20.00 this month" },
      { label: "Account", value: "user@example.com" },
    ]);
  });

  it("sends the token with the beta header, never the refresh token, nothing to platform.claude.com or console.anthropic.com, and leaves the file byte-identical", async () => {
    const home = freshHome();
    const path = seedClaudeHome(home);
    const before = readFileSync(path);
    await claude({ home });
    const request = usageRequests().at(-1)!;
    expect(request.origin).toBe("https://api.anthropic.com");
    expect(request.headers.authorization).toBe(`Bearer ${CLAUDE_TEST_TOKEN}`);
    expect(request.headers["anthropic-beta"]).toBe("oauth-2025-04-20");
    expect(JSON.stringify(sim.sim.requests)).not.toContain(CLAUDE_TEST_REFRESH_TOKEN);
    expect(sim.sim.requests.map((r) => r.origin)).not.toContain("https://platform.claude.com");
    expect(sim.sim.requests.map((r) => r.origin)).not.toContain("https://console.anthropic.com");
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(join(home, ".claude"))).toEqual([".credentials.json"]);
  });

  it("takes the per-model weekly limit of limits[] third (numbers or ISO resets) and the other as a detail", async () => {
    sim.sim.setScenario("claude", "limits");
    const { usage } = await claude();
    expect(usage.tertiary).toMatchObject({ label: "Fable only", usedPercent: 5, resetsAt: "2026-08-26T09:00:00.283Z" });
    expect(usage.details[0]).toEqual({ label: "Opus only", value: "42% used, resets 2026-08-26 09:00 UTC" });
  });

  it("shows a spend-limit-only account's limit as its meter, in its currency", async () => {
    sim.sim.setScenario("claude", "spend_only");
    const { usage } = await claude();
    expect(usage.primary).toMatchObject({
      label: "Spend limit",
      usedPercent: 38.15,
      used: 7.63,
      limit: 20,
      unit: "EUR",
      note: "7.63 EUR / 20.00 EUR this month",
    });
    expect(usage.secondary).toBeNull();
  });

  it("asks the endpoint at most once a minute per credential, whatever polls (several instances share the cooldown)", async () => {
    const home = freshHome();
    seedClaudeHome(home);
    const first = await claude({ home });
    const second = await claude({ home });
    expect(usageRequests()).toHaveLength(1);
    expect(second.usage).toMatchObject({ ok: true, primary: first.usage.primary });
    const cached = filesUnder(join(home, ".cache"));
    expect(cached.some((text) => text.includes('"rateLimited":false'))).toBe(true); // the cooldown file is there...
    expect(cached.join("\n")).not.toContain(CLAUDE_TEST_TOKEN.slice(-12)); // ...keyed by a hash, never the token
  });

  it("a 429 starts a cooldown (Retry-After): the last snapshot is served stale with the next try, and nothing is asked during it", async () => {
    const home = freshHome();
    seedClaudeHome(home);
    await claude({ home });
    minuteLater(home);
    sim.sim.setScenario("claude", "rate_limited");
    const limited = await claude({ home });
    expect(limited.usage).toMatchObject({ ok: false, stale: true, primary: { label: "Session", usedPercent: 12.5 } });
    expect(limited.usage.error?.code).toBe("rate_limited");
    const nextTry = /next try at (\S+)/.exec(limited.usage.error?.message ?? "")?.[1] ?? "";
    expect(Date.parse(nextTry) - Date.now()).toBeGreaterThan(250_000);
    expect(limited.usage.error?.hint).toMatch(/300 s/);
    const asked = usageRequests().length;
    sim.sim.setScenario("claude", "ok");
    const during = await claude({ home });
    expect(usageRequests()).toHaveLength(asked);
    expect(during.usage).toMatchObject({ ok: false, stale: true, error: { code: "rate_limited" } });
  });

  it("a 401 is not ok (unauthorized), serves the last snapshot stale and says to run claude once", async () => {
    const home = freshHome();
    seedClaudeHome(home);
    await claude({ home });
    minuteLater(home);
    sim.sim.setScenario("claude", "unauthorized");
    const { usage } = await claude({ home });
    expect(usage).toMatchObject({ ok: false, stale: true, error: { code: "unauthorized" } });
    expect(usage.error?.hint).toContain("Run `claude` once");
  });

  it("a 403 for the user:profile scope is forbidden, with the `claude setup-token` hint", async () => {
    sim.sim.setScenario("claude", "scope");
    const { usage } = await claude();
    expect(usage).toMatchObject({ ok: false, error: { code: "forbidden" } });
    expect(usage.error?.hint).toContain("claude setup-token");
  });

  it("a token whose scopes lack user:profile is refused without a request", async () => {
    const home = freshHome();
    const path = seedClaudeHome(home);
    writeFileSync(path, readFileSync(path, "utf8").replace('"user:profile",', ""));
    const { usage } = await claude({ home });
    expect(usage.error).toMatchObject({ code: "forbidden" });
    expect(usage.error?.hint).toContain("claude setup-token");
    expect(usageRequests()).toHaveLength(0);
  });

  it("an expired token (expiresAt past) is `expired` with the hint to run claude, and no request is made", async () => {
    const home = freshHome();
    const path = seedClaudeHome(home, "expired_token");
    const before = readFileSync(path);
    const { usage } = await claude({ home });
    expect(usage).toMatchObject({ ok: false, error: { code: "expired" } });
    expect(usage.error?.message).toContain("~/.claude/.credentials.json expired at 2026-08-21T13:00:00.000Z");
    expect(usage.error?.hint).toContain("Run `claude` once");
    expect(sim.sim.requests).toHaveLength(0);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("reads $CLAUDE_CONFIG_DIR, and the entry's claudeConfigDir before it (one account per directory)", async () => {
    const home = freshHome();
    const elsewhere = join(home, "work-claude");
    seedClaudeHome(elsewhere);
    rmSync(join(home, ".claude"), { recursive: true, force: true });
    const viaEnv = await claude({ home, env: { CLAUDE_CONFIG_DIR: join(elsewhere, ".claude") } });
    expect(viaEnv.usage).toMatchObject({ ok: true, source: "oauth" });
    minuteLater(home);
    const restore = writeConfig(home, { providers: [{ id: "claude", claudeConfigDir: "~/work-claude/.claude" }] });
    try {
      const viaConfig = await claude({ home, env: { CLAUDE_CONFIG_DIR: join(home, "nowhere") } });
      expect(viaConfig.usage).toMatchObject({ ok: true, source: "oauth" });
    } finally {
      restore();
    }
  });

  it.each([
    ["not JSON", (path: string) => writeFileSync(path, "accessToken=sk-ant-oat01-secret-in-a-broken-file"), "is not JSON"],
    ["a directory", (path: string) => mkdirSync(path), "is a directory"],
    ["a FIFO", (path: string) => execFileSync("mkfifo", [path]), "is not a regular file"],
    ["10 MB", (path: string) => writeFileSync(path, `{"x":"${"a".repeat(10 * 1024 * 1024)}"}`), "is too large to be a sign-in file"],
    [
      "only MCP sign-ins",
      (path: string) => writeFileSync(path, '{"mcpOAuth":{"x":{"accessToken":""}}}'),
      "has no Claude sign-in (claudeAiOauth)",
    ],
  ])("a credentials file that is %s gives a clear error naming it, never its content", async (_name, make, problem) => {
    const home = freshHome();
    mkdirSync(join(home, ".claude"));
    make(join(home, ".claude", ".credentials.json"));
    const { usage } = await claude({ home });
    expect(usage.ok).toBe(false);
    expect(usage.error?.message).toBe(`Claude Code's sign-in ~/.claude/.credentials.json ${problem}`);
    expect(JSON.stringify(usage)).not.toContain("secret-in-a-broken-file");
  });
});

describe("Claude Code's sign-in on macOS: the Keychain item first", () => {
  const contextWith = (env: Record<string, string>, items: Record<string, string>, asked: string[]) =>
    ({
      env,
      entry: { id: "claude" },
      browsers: {
        appSecret: async ({ service, account }: { service: string; account?: string }) => {
          asked.push(`${service}|${account}`);
          return items[service] ?? null;
        },
      },
    }) as unknown as CredentialContext;

  it("reads `Claude Code-credentials` (hex-encoded JSON as `security -w` prints it) before the file, for $USER", async () => {
    os.platform = "darwin";
    const home = freshHome();
    seedClaudeHome(home);
    const json = '{"claudeAiOauth":{"accessToken":"sk-ant-oat01-keychain-token-0000","subscriptionType":"pro","scopes":["user:profile"]}}';
    const asked: string[] = [];
    const signIn = await findClaudeSignIn(
      contextWith({ HOME: home, USER: "me" }, { "Claude Code-credentials": Buffer.from(json).toString("hex") }, asked),
    );
    expect(signIn?.accessToken).toBe("sk-ant-oat01-keychain-token-0000");
    expect(signIn?.facts).toMatchObject({ where: 'in the Keychain item "Claude Code-credentials"', subscriptionType: "pro" });
    expect(asked).toEqual(["Claude Code-credentials|me"]);
  });

  it("asks for the item named after CLAUDE_CONFIG_DIR first, then the plain one, then reads the file", async () => {
    os.platform = "darwin";
    const home = freshHome();
    const dir = join(home, "other", ".claude");
    seedClaudeHome(join(home, "other"));
    const asked: string[] = [];
    const signIn = await findClaudeSignIn(contextWith({ HOME: home, CLAUDE_CONFIG_DIR: dir }, {}, asked));
    expect(asked).toEqual([`Claude Code-credentials-${await shortHash(dir)}|undefined`, "Claude Code-credentials|undefined"]);
    expect(signIn?.accessToken).toBe(CLAUDE_TEST_TOKEN);
    expect(signIn?.facts.where).toBe("~/other/.claude/.credentials.json");
  });
});

describe("claude.ai with the sessionKey cookie", () => {
  it("reads the chat organization's usage, the spend limit, prepaid credits and the account", async () => {
    const { usage } = await claude({ home: freshHome(), env: { CLAUDE_COOKIE: CLAUDE_TEST_SESSION }, source: "web" });
    expect(usage).toMatchObject({ ok: true, source: "web", plan: "Max 20x" });
    expect(usage.primary).toMatchObject({ label: "Session", usedPercent: 9, resetsAt: "2026-08-21T16:00:00.000Z" });
    expect(usage.secondary).toMatchObject({ label: "Weekly", usedPercent: 4 });
    expect(usage.tertiary).toMatchObject({ label: "Opus", usedPercent: 1, resetsAt: "2026-08-27T23:00:00.000Z" });
    expect(usage.details).toEqual([
      { label: "Extra usage", value: "$67.89 of $123.45 this month" },
      { label: "Prepaid credits", value: "$100.00" },
      { label: "Account", value: "steipete@gmail.com" },
      { label: "Organization", value: "Example Org" },
    ]);
    expect(sim.sim.requests.find((r) => r.path === "/api/organizations/org-chat/usage")?.headers.cookie).toBe(
      `sessionKey=${CLAUDE_TEST_SESSION}`,
    );
  });

  it("auto falls back to claude.ai when Claude Code's sign-in is refused, and says so", async () => {
    sim.sim.setScenario("claude", "unauthorized");
    const { usage } = await claude({ env: { CLAUDE_COOKIE: `sessionKey=${CLAUDE_TEST_SESSION}` } });
    expect(usage).toMatchObject({ ok: true, source: "web" });
  });

  it("a refused cookie is unauthorized with the sign-in hint", async () => {
    const { usage } = await claude({ home: freshHome(), env: { CLAUDE_COOKIE: "sessionKey=sk-ant-sid01-wrong-0000" }, source: "web" });
    expect(usage).toMatchObject({ ok: false, error: { code: "unauthorized" } });
    expect(JSON.stringify(usage)).not.toContain("sk-ant-sid01-wrong-0000");
  });
});

describe("the claude CLI's /usage panel in a pseudo-terminal", () => {
  it("runs a real claude on PATH under script and reads its panel: the windows, the model week, the account, the plan", async () => {
    const home = freshHome();
    const bin = join(home, "bin");
    writeFakeClaude(bin);
    const { usage } = await claude({ home, env: { PATH: `${bin}:/usr/bin:/bin` }, source: "cli" });
    expect(usage).toMatchObject({ ok: true, source: "cli", plan: "Max" });
    expect(usage.primary).toMatchObject({ label: "Session", usedPercent: 1, windowMinutes: 300 });
    expect(usage.secondary).toMatchObject({ label: "Weekly", usedPercent: 18, resetsAt: "2026-08-25T07:59:00.000Z" });
    expect(usage.tertiary).toMatchObject({ label: "Sonnet", usedPercent: 0 });
    expect(usage.details).toEqual([
      { label: "Fable only", value: expect.stringMatching(/^68% used, resets \d{4}-08-25 00:59 UTC$/) as unknown as string },
      { label: "Account", value: "user@example.com" },
      { label: "Organization", value: "Example Org" },
    ]);
    const calls = readFileSync(join(bin, "claude.calls"), "utf8");
    expect(calls).toContain("/usage");
    expect(calls).toContain("tty"); // a pseudo-terminal, not a pipe
  });

  it("a CLI that is not signed in is unauthorized with the hint to sign in", async () => {
    const home = freshHome();
    const bin = join(home, "bin");
    writeFakeClaude(bin, "not_signed_in");
    const { usage } = await claude({ home, env: { PATH: `${bin}:/usr/bin:/bin` }, source: "cli" });
    expect(usage).toMatchObject({ ok: false, error: { code: "unauthorized" } });
    expect(usage.error?.hint).toContain("/login");
  });

  it("parses the classic layout, percent left, and the reset forms", () => {
    const now = new Date("2026-12-01T10:00:00Z");
    const reading = cliReading(
      "Settings: Status Config Usage\nCurrent session\n1% used  (Resets 5am (Europe/Vienna))\nCurrent week (all models)\n70% left (Resets Dec 2 at 12am (Europe/Vienna))\n",
      now,
    );
    expect(reading.usage.fiveHour).toEqual({ usedPercent: 1, resetsAt: "2026-12-02T04:00:00.000Z" });
    expect(reading.usage.sevenDay).toEqual({ usedPercent: 30, resetsAt: "2026-12-01T23:00:00.000Z" });
    expect(resetDate(" Jan 2, 2026, 10:59pm (Europe/Helsinki)", now, 10080)).toBe("2026-01-02T20:59:00.000Z");
    expect(resetDate(" 3:59pm (UTC)", now, 300)).toBe("2026-12-01T15:59:00.000Z");
    expect(resetDate(" whenever", now, 300)).toBeNull();
    expect(() => cliReading("Welcome to Claude Code", now)).toThrow(/no Current session/);
    expect(() => cliReading('Failed to load usage data: {"error":{"type":"rate_limit_error"}}', now)).toThrow(/rate limited/);
  });
});

describe("claude policy and wire pieces (pure)", () => {
  it("reads resets_at in every form Claude sends", () => {
    expect(resetTime("2026-07-03T00:30:00.282668+00:00")).toBe("2026-07-03T00:30:00.282Z");
    expect(resetTime("2026-07-03T02:30:00.282668+0200")).toBe("2026-07-03T00:30:00.282Z");
    expect(resetTime("2099-06-01T12:00:00.123456")).toBe("2099-06-01T12:00:00.123Z");
    expect(resetTime("2099-01-01 00:00:00 UTC")).toBe("2099-01-01T00:00:00.000Z");
    expect(resetTime(1787734800)).toBe("2026-08-26T09:00:00.000Z");
    expect(resetTime(1787734800000)).toBe("2026-08-26T09:00:00.000Z");
    expect(resetTime("soon")).toBeNull();
    expect(resetTime(null)).toBeNull();
  });

  it("names the Keychain item after CLAUDE_CONFIG_DIR as Claude Code does", async () => {
    expect(await shortHash("/Users/test/.claude")).toBe("462977e4");
  });

  it("names the plan from subscriptionType and rateLimitTier, never prefixed Claude", () => {
    expect(planOf("max", "default_claude_max_20x")).toBe("Max 20x");
    expect(planOf("max", "claude_max_subscription_5x")).toBe("Max 5x");
    expect(planOf("pro", "default_claude_max_20x")).toBe("Pro");
    expect(planOf("team", "default_claude_max_5x")).toBe("Team");
    expect(planOf(null, "claude_pro")).toBe("Pro");
    expect(planOf(null, "default_claude_ai")).toBeNull();
    expect(planOf(null, null)).toBeNull();
  });

  const reading = (usage: Partial<ClaudeUsage>): ClaudeReading => ({
    usage: { ...noUsage(), ...usage },
    plan: null,
    email: null,
    organization: null,
    prepaid: null,
  });

  it("falls back to a weekly window for an account without a session, and refuses an answer with nothing to show", () => {
    const weeklyOnly = claudeSnapshot(reading({ sevenDay: { usedPercent: 40, resetsAt: null } }));
    expect(weeklyOnly.primary).toMatchObject({ label: "Weekly", usedPercent: 40, windowMinutes: 10080 });
    expect(weeklyOnly.secondary).toBeNull();
    expect(() => claudeSnapshot(reading({}))).toThrow(QuotabarError);
  });

  it("shows cost as details once the cost reader fills it in", () => {
    expect(costDetails({ today: 12.345, sessionWindow: 3.2 })).toEqual([
      { label: "Cost today", value: "$12.35" },
      { label: "Cost this session", value: "$3.20" },
    ]);
    expect(costDetails(null)).toEqual([]);
  });
});

describe("the request cooldown (kit)", () => {
  const at = { now: Date.parse("2026-08-21T12:00:00Z") };
  const strategy = (answers: (() => Promise<number>)[]): FetchStrategy<string, number> & { calls: number } => {
    const s = {
      calls: 0,
      source: "oauth" as const,
      credentials: { resolve: async () => "token" },
      missingCredential: () => new QuotabarError("not_configured", "none"),
      toSnapshot: () => ({ plan: null, primary: null, secondary: null, tertiary: null, details: [] }),
      fetch: async () => answers[s.calls++]!(),
    };
    return s;
  };
  const context = () =>
    ({
      now: () => new Date(at.now),
      env: { XDG_CACHE_HOME: freshHome() },
      http: { excerpt: (text: string) => text },
    }) as unknown as FetchContext;
  const options = { name: "test-usage", service: "The endpoint", minIntervalMs: 60_000, defaultCooldownMs: 300_000 };

  it("answers again inside the minute, waits out a 429 (default 5 minutes), then asks again", async () => {
    const limited = new QuotabarError("rate_limited", "HTTP 429");
    const inner = strategy([async () => 1, async () => Promise.reject(limited), async () => 3]);
    const cooled = withRequestCooldown(inner, options);
    const ctx = context();
    expect(await cooled.fetch("token", ctx)).toBe(1);
    at.now += 30_000;
    expect(await cooled.fetch("token", ctx)).toBe(1);
    expect(inner.calls).toBe(1);
    at.now += 31_000;
    await expect(cooled.fetch("token", ctx)).rejects.toMatchObject({ code: "rate_limited", retryAfterSeconds: 300 });
    at.now += 299_000;
    await expect(cooled.fetch("token", ctx)).rejects.toThrow(/next try at 2026-08-21T12:06:01.000Z/);
    expect(inner.calls).toBe(2);
    at.now += 2_000;
    expect(await cooled.fetch("token", ctx)).toBe(3);
  });

  it("a process that starts while another asks gives the last answer again instead of asking too", async () => {
    let release: (value: number) => void = () => undefined;
    const inner = strategy([async () => 1, () => new Promise<number>((resolve) => (release = resolve))]);
    const cooled = withRequestCooldown(inner, options);
    const ctx = context();
    expect(await cooled.fetch("token", ctx)).toBe(1);
    at.now += 61_000;
    const asking = cooled.fetch("token", ctx);
    await vi.waitFor(() => expect(inner.calls).toBe(2));
    expect(await cooled.fetch("token", ctx)).toBe(1);
    release(2);
    expect(await asking).toBe(2);
    expect(inner.calls).toBe(2);
  });

  it("keeps each credential's wait apart (one account's 429 leaves another's alone)", async () => {
    const inner = strategy([async () => Promise.reject(new QuotabarError("rate_limited", "HTTP 429")), async () => 7]);
    const cooled = withRequestCooldown(inner, options);
    const ctx = context();
    await expect(cooled.fetch("token-of-one", ctx)).rejects.toMatchObject({ code: "rate_limited" });
    expect(await cooled.fetch("token-of-another", ctx)).toBe(7);
    await expect(cooled.fetch("token-of-one", ctx)).rejects.toMatchObject({ code: "rate_limited" });
    expect(inner.calls).toBe(2);
  });

  it("repeats a failure inside the minute instead of asking again", async () => {
    const inner = strategy([
      async () => Promise.reject(new QuotabarError("unauthorized", "refused", { remedies: [{ kind: "advice", text: "run it" }] })),
    ]);
    const cooled = withRequestCooldown(inner, options);
    const ctx = context();
    await expect(cooled.fetch("token", ctx)).rejects.toMatchObject({ code: "unauthorized" });
    await expect(cooled.fetch("token", ctx)).rejects.toMatchObject({
      code: "unauthorized",
      remedies: [{ kind: "advice", text: "run it" }],
    });
    expect(inner.calls).toBe(1);
  });
});

describe("quotabar -p claude --json (the built CLI, a HOME holding only ~/.claude/.credentials.json)", () => {
  it("answers from the simulator through QUOTABAR_ORIGIN_MAP, and leaves the sign-in byte-identical", async () => {
    const home = freshHome();
    const path = seedClaudeHome(home);
    chmodSync(path, 0o600);
    const before = readFileSync(path);
    const result = await runCli(["-p", "claude", "--json"], { HOME: home, QUOTABAR_ORIGIN_MAP: sim.sim.env().QUOTABAR_ORIGIN_MAP });
    const usage = (JSON.parse(result.stdout) as { providers: { id: string; ok: boolean; source: string; plan: string }[] }).providers[0];
    expect(usage).toMatchObject({ id: "claude", ok: true, source: "oauth", plan: "Max 20x" });
    expect(result.stdout + result.stderr).not.toContain(CLAUDE_TEST_TOKEN);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
