import { execFileSync } from "node:child_process";
import { createCipheriv, createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { afterAll, describe, expect, it } from "vitest";
import { PEANUTS_KEY } from "../../adapters/browser/chromium/chromium-crypto.js";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { MemorySecretStore } from "../../adapters/secrets/memory-secret-store.js";
import { BetterSqlite } from "../../adapters/sqlite/better-sqlite3.js";
import { createNodeCore } from "../../library/node-core.js";
import type { BrowserAccess, BrowserCookie, CookieCandidate, CookieQuery } from "../../ports/browser-credentials.js";
import type { CredentialContext } from "../../ports/fetch-context.js";
import { useSimulator } from "../../test/helpers/harness.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { createQuotabar } from "../../index.js";
import { hostOs } from "../kit/index.js";
import { accountStatus, plainLines } from "./cli-output.js";
import { AUGMENT_SESSION, augmentCookie, BROWSERS } from "./cookies.js";
import { augmentCliSnapshot, augmentWebSnapshot } from "./policy.js";
import { AUGGIE_FILES, AUGGIE_SCENARIOS, AUGMENT_TEST_COOKIE, AUGMENT_TEST_SESSION, writeFakeAuggie } from "./simulator.js";
import { pathInShellAnswer } from "./credentials.js";

interface Db {
  exec(sql: string): void;
  prepare(sql: string): { run(...params: unknown[]): void };
  close(): void;
}
const Database = createRequire(import.meta.url)("better-sqlite3") as new (path: string) => Db;

const sim = useSimulator();
const FIXTURES = join(import.meta.dirname, "fixtures");
const fixture = (name: string) => readFileSync(join(FIXTURES, name), "utf8");
/** No auggie here (none on these dirs), and no login shell to ask (SHELL unset): the web path. */
const NO_AUGGIE = { PATH: "/nonexistent-quotabar-bin" };
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

async function augment(extra: Record<string, string | undefined> = {}, timeoutMs?: number) {
  const doc = await sim.quotabar({ ...NO_AUGGIE, ...extra }, timeoutMs).usage({ providers: ["augment"] });
  return doc.providers[0]!;
}

/** A stand-in auggie of this scenario first on PATH; the simulator's cookie in the environment too. */
async function withAuggie(scenario: string, timeoutMs?: number, extra: Record<string, string | undefined> = {}) {
  const bin = join(tempDir("quotabar-auggie-"), "bin");
  writeFakeAuggie(bin, scenario);
  const usage = await augment({ PATH: `${bin}:/usr/bin:/bin`, ...extra }, timeoutMs);
  return { usage, bin, calls: () => readFileSync(join(bin, AUGGIE_FILES.calls), "utf8") };
}

const paths = () => sim.sim.requests.map((r) => r.path).sort();

describe("augment web, against the simulator", () => {
  it("asks for the credits and the subscription with the cookie header, as the web app does", async () => {
    await augment();
    expect(paths()).toEqual(["/api/credits", "/api/subscription"]);
    for (const request of sim.sim.requests) {
      expect(request).toMatchObject({ method: "GET", origin: "https://app.augmentcode.com" });
      expect(request.headers).toMatchObject({ accept: "application/json", cookie: AUGMENT_TEST_COOKIE });
    }
  });

  it("maps credits consumed of the limit, the plan, the account and the billing period's end (reference sample A)", async () => {
    const usage = await augment();
    expect(usage).toMatchObject({ ok: true, source: "web", plan: "Developer", secondary: null, tertiary: null });
    expect(usage.primary).toEqual({
      label: "Credits",
      usedPercent: 29.24,
      used: 131_600,
      limit: 450_000,
      unit: "credits",
      unlimited: false,
      resetsAt: "2026-04-09T00:00:00.000Z",
      // the monthly billing period: from 9 March to its end on 9 April
      windowMinutes: 31 * 1440,
      note: null,
    });
    expect(usage.details).toEqual([
      { label: "Account", value: "dana@example.dev" },
      { label: "Organization", value: "Example Labs" },
    ]);
  });

  it("still answers when the subscription fails: 90 %, no plan, no reset (sample B)", async () => {
    sim.sim.setScenario("augment", "near_limit");
    const usage = await augment();
    expect(usage).toMatchObject({ ok: true, plan: null, details: [] });
    expect(usage.primary).toMatchObject({ usedPercent: 90, used: 45_000, limit: 50_000, resetsAt: null });
  });

  it("shows an overage as a full bar of usageUnitsAvailable, and reads a period end with fractional seconds (sample C)", async () => {
    sim.sim.setScenario("augment", "overage");
    const usage = await augment();
    expect(usage.primary).toMatchObject({ usedPercent: 100, used: 451_250, limit: 450_000, resetsAt: "2026-04-09T00:00:00.000Z" });
  });

  it.each(["signed_out", "expired"])("says the session expired when the credits answer 401 (%s)", async (scenario) => {
    sim.sim.setScenario("augment", scenario);
    const usage = await augment();
    expect(usage.error).toMatchObject({ code: "expired", message: "Augment session expired. Please log in again." });
    expect(usage.error?.hint).toContain("Sign in at https://app.augmentcode.com in your browser.");
    expect(usage.error?.hint).toContain("providers[augment].cookieHeader");
  });

  it("reports 403 and other statuses as Augment API errors with the body's first line", async () => {
    sim.sim.setScenario("augment", "forbidden");
    expect((await augment()).error).toMatchObject({
      code: "forbidden",
      message: "Augment API error: HTTP 403: Forbidden: this account has no access to usage data",
    });
    sim.sim.setScenario("augment", "upstream_500");
    expect((await augment()).error).toMatchObject({ code: "upstream", message: "Augment API error: HTTP 500: Internal Server Error" });
  });

  it("reports a credits body it cannot read as a parse error naming the field, never as 0 %", async () => {
    sim.sim.setScenario("augment", "malformed");
    const usage = await augment();
    expect(usage).toMatchObject({ ok: false, primary: null });
    expect(usage.error?.code).toBe("parse");
    expect(usage.error?.message).toMatch(/^Could not parse Augment usage: Credits response: usageUnitsRemaining: /);
    sim.sim.setScenario("augment", "not_json");
    expect((await augment()).error).toMatchObject({
      code: "parse",
      message: "Could not parse Augment usage: Credits response: the body is not JSON",
    });
  });

  it("gives up on a slow web app within the time budget", async () => {
    sim.sim.setScenario("augment", "slow");
    expect((await augment({}, 400)).error?.code).toBe("timeout");
  });

  it("says no session was found, naming the browsers looked in, when there is no auggie and no cookie", async () => {
    const usage = await augment({ AUGMENT_COOKIE: undefined });
    const browsers =
      hostOs().platform === "darwin"
        ? "Safari, Chrome, Chrome Beta, Chrome Canary, Edge, Edge Beta, Brave, Arc, Dia, Arc Beta, Firefox, Chromium"
        : "Chrome, Chrome Beta, Chrome Canary, Edge, Edge Beta, Brave, Firefox, Chromium";
    expect(usage.error).toMatchObject({
      code: "not_configured",
      message: `No Augment session found. Please log in to app.augmentcode.com in ${browsers}.`,
    });
    expect(usage.error?.hint).toContain("Install the Auggie CLI and run `auggie login`.");
    expect(sim.sim.requests).toEqual([]);
  });

  it("takes the config's cookie header over AUGMENT_COOKIE, and none with cookieSource off", async () => {
    const cleanup = writeConfig(sim.home, { providers: [{ id: "augment", cookieHeader: `Cookie: session=${AUGMENT_TEST_SESSION}` }] });
    try {
      expect((await augment({ AUGMENT_COOKIE: "_session=wrong" })).ok).toBe(true);
      expect(sim.sim.requests[0]!.headers.cookie).toBe(`session=${AUGMENT_TEST_SESSION}`);
    } finally {
      cleanup();
    }
    const off = writeConfig(sim.home, { providers: [{ id: "augment", cookieSource: "off", cookieHeader: "session=x" }] });
    try {
      expect((await augment({ AUGMENT_COOKIE: undefined })).error?.code).toBe("not_configured");
    } finally {
      off();
    }
  });
});

describe("augment with a stand-in auggie on PATH", () => {
  it("answers from `auggie account status` and says source cli, with no web request", async () => {
    const { usage, calls } = await withAuggie("ok");
    expect(usage).toMatchObject({ ok: true, source: "cli", plan: "450,000 credits/month", details: [] });
    expect(usage.primary).toMatchObject({
      label: "Credits",
      usedPercent: 91.53,
      used: 411_880,
      limit: 450_000,
      resetsAt: new Date(2026, 3, 2).toISOString(),
      // the monthly cycle up to its end: 2 March to 2 April
      windowMinutes: 31 * 1440,
    });
    expect(calls()).toBe("account status\n");
    expect(sim.sim.requests).toEqual([]);
  });

  it("reads the boxed 2026 account card: used is the monthly credits less what remains", async () => {
    const { usage } = await withAuggie("boxed");
    expect(usage).toMatchObject({ ok: true, source: "cli", plan: "450,000 credits/month" });
    expect(usage.primary).toMatchObject({
      used: 237_570,
      limit: 450_000,
      usedPercent: 52.79,
      resetsAt: new Date(2026, 3, 11).toISOString(),
    });
  });

  it("strips colours, links and carriage returns before reading", async () => {
    const { usage } = await withAuggie("colored");
    expect(usage.primary).toMatchObject({ used: 411_880, limit: 450_000 });
  });

  it("runs the binary AUGGIE_CLI_PATH names before any auggie on PATH, with its directory on the run's PATH", async () => {
    const chosen = join(tempDir("quotabar-auggie-env-"), "bin");
    writeFakeAuggie(chosen, "boxed");
    const { usage } = await withAuggie("ok", undefined, { AUGGIE_CLI_PATH: join(chosen, "auggie") });
    expect(usage.primary?.used).toBe(237_570);
    expect(readFileSync(join(chosen, AUGGIE_FILES.path), "utf8").split(":")[0]).toBe(chosen);
  });

  it.each([
    ["not_authenticated", "unauthorized", "Not authenticated. Run 'auggie login' to authenticate."],
    ["empty", "upstream", "Auggie CLI returned no output"],
    ["crash", "upstream", "Auggie CLI failed with status 2: Error: Cannot find module 'node:sqlite'"],
  ])("falls back to the web when auggie fails (%s)", async (scenario, code, message) => {
    const { usage } = await withAuggie(scenario);
    expect(usage).toMatchObject({ ok: true, source: "web", plan: "Developer" });
    // without a web session, the CLI's own error is what the user sees
    const alone = await withAuggie(scenario, undefined, { AUGMENT_COOKIE: undefined });
    expect(alone.usage.error).toMatchObject({ code, message });
  });

  it("does not fall back when the output cannot be read: its format changed", async () => {
    const { usage } = await withAuggie("unknown_format");
    expect(usage.error).toMatchObject({ code: "parse", message: "Failed to parse auggie output: Could not extract credits from output" });
    expect(sim.sim.requests).toEqual([]);
  });

  it("kills a hanging auggie with its process group and falls back to the web", async () => {
    const { usage, bin } = await withAuggie("hang", 3_000);
    expect(usage).toMatchObject({ ok: true, source: "web" });
    await expectGone(Number(readFileSync(join(bin, AUGGIE_FILES.childPid), "utf8")));
    const alone = await withAuggie("hang", 2_000, { AUGMENT_COOKIE: undefined });
    expect(alone.usage.error).toMatchObject({ code: "timeout", message: "Auggie CLI timed out." });
  });

  it("reads the status of an auggie that printed it and then hung", async () => {
    const { usage, bin } = await withAuggie("status_then_hang", 3_000);
    expect(usage).toMatchObject({ ok: true, source: "cli", primary: { used: 411_880 } });
    await expectGone(Number(readFileSync(join(bin, AUGGIE_FILES.childPid), "utf8")));
  });

  it("asks the login shell for auggie when PATH has none, once a day at most", async () => {
    const home = tempDir("quotabar-auggie-shell-");
    const hidden = join(home, "tools");
    const auggie = writeFakeAuggie(hidden, "boxed");
    const shell = join(home, "fake-shell");
    // an interactive login shell: rc files print first, then `command -v auggie` answers
    writeFileSync(
      shell,
      `#!/bin/sh\necho called >> "${home}/shell.calls"\necho "Welcome back"\n[ "$4" = "command -v auggie" ] && echo "${auggie}"\n`,
    );
    chmodSync(shell, 0o755);
    const env = { ...sim.env(), HOME: home, PATH: "/usr/bin:/bin", SHELL: shell };
    for (let run = 0; run < 2; run++) {
      const [usage] = (await createQuotabar({ env }).usage({ providers: ["augment"] })).providers;
      expect(usage).toMatchObject({ ok: true, source: "cli", primary: { used: 237_570 } });
    }
    expect(readFileSync(join(home, "shell.calls"), "utf8")).toBe("called\n");
  });

  it("takes an auggie that is found to mean Augment is set up, without running it", async () => {
    const home = tempDir("quotabar-auggie-list-");
    const bin = join(home, "bin");
    writeFakeAuggie(bin, "ok");
    const listing = await createQuotabar({ env: { HOME: home, PATH: bin } }).listProviders();
    expect(listing.find((p) => p.id === "augment")).toMatchObject({ credentialsFound: true, enabled: true, supported: true });
    expect(existsSync(join(bin, AUGGIE_FILES.calls))).toBe(false);
  });

  it("refuses an unknown stand-in scenario by listing the known ones", () => {
    expect(AUGGIE_SCENARIOS).toContain("boxed");
    expect(() => writeFakeAuggie(tempDir("quotabar-auggie-x-"), "nope")).toThrow(/known: ok, boxed/);
  });
});

/** A killed process may linger as a zombie until reaped: gone means absent or a zombie. */
async function expectGone(pid: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 200));
  let state = "";
  try {
    state = execFileSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" }).trim();
  } catch {
    state = "";
  }
  expect(state === "" || state.startsWith("Z")).toBe(true);
}

describe("auggie output", () => {
  const read = (name: string) => accountStatus(plainLines(fixture(name)));

  it("reads every form of the reference", () => {
    expect(read("auggie-legacy.txt")).toEqual({
      remaining: 38_120,
      used: 411_880,
      limit: 450_000,
      monthlyCredits: 450_000,
      cycleEnd: { year: 2026, month: 4, day: 2 },
    });
    expect(read("auggie-boxed.txt")).toEqual({
      remaining: 212_430,
      used: 237_570,
      limit: 450_000,
      monthlyCredits: 450_000,
      cycleEnd: { year: 2026, month: 4, day: 11 },
    });
    expect(read("auggie-colored.txt")).toEqual(read("auggie-legacy.txt"));
    // v0.18's plan line without "/ month", and numbers without grouping
    expect(accountStatus(["Max Plan 450000 credits", "100 remaining · 449900 / 450000 credits used"])).toMatchObject({
      monthlyCredits: 450_000,
      used: 449_900,
      cycleEnd: null,
    });
  });

  it("needs remaining, used and total: anything less is the reference's parse error", () => {
    for (const lines of [["Max Plan 450,000 credits / month"], ["38,120 remaining · credits used"], ["Welcome to Auggie!"]]) {
      expect(() => accountStatus(lines)).toThrowError("Failed to parse auggie output: Could not extract credits from output");
    }
  });

  it("reads bounded output only: huge lines and numbers too long to be counts are no counts", () => {
    expect(plainLines(`${"x".repeat(10_000)}\nMax Plan`)).toEqual(["x".repeat(400), "Max Plan"]);
    expect(plainLines(`${"x\n".repeat(40_000)}Max Plan`)).not.toContain("Max Plan");
    expect(() => accountStatus([`${"9".repeat(40)} credits remaining`, "450,000 credits / month"])).toThrowError(/Could not extract/);
  });

  it("finds auggie in a login shell's answer, an alias included", () => {
    expect(pathInShellAnswer("Welcome back!\n/home/dana/.nvm/versions/node/v22/bin/auggie\n")).toBe(
      "/home/dana/.nvm/versions/node/v22/bin/auggie",
    );
    expect(pathInShellAnswer("alias auggie='/opt/auggie/bin/auggie'\n")).toBe("/opt/auggie/bin/auggie");
    expect(pathInShellAnswer("auggie: aliased to /opt/auggie/bin/auggie\n")).toBe("/opt/auggie/bin/auggie");
    for (const answer of ["", "auggie not found", "alias auggie='npx auggie'", "auggie"]) expect(pathInShellAnswer(answer)).toBeNull();
  });
});

describe("augment session cookies", () => {
  it.each([
    "_session",
    "session",
    "web_rpc_proxy_session",
    "wos-session",
    "next-auth.session-token",
    "__Secure-next-auth.session-token",
    "__Secure-next-auth.session-token.0",
    "authjs.session-token",
    "__Secure-authjs.session-token",
    "__Host-authjs.csrf-token",
    "auth0.is.authenticated",
    "auth0",
    "a0.spajs.txs",
  ])("recognises %s", (name) => {
    expect(AUGMENT_SESSION.isSession(name)).toBe(true);
  });

  it.each([
    "ajs_anonymous_id",
    "_ga",
    "session_id",
    "next-auth.csrf-token",
    "__Host-authjs.session",
    "x.session-token.abc",
    "access-token",
  ])("does not take %s for a session", (name) => {
    expect(AUGMENT_SESSION.isSession(name)).toBe(false);
  });

  const cookie = (name: string, value: string): BrowserCookie => ({
    name,
    value,
    domain: ".augmentcode.com",
    hostOnly: false,
    path: "/",
    expiresAt: null,
    secure: true,
  });
  const candidates: CookieCandidate[] = [
    { browser: "chrome", profile: "Default", cookies: [cookie("_ga", "GA1.1")] },
    { browser: "chrome", profile: "Work", cookies: [cookie("ajs_anonymous_id", "anon"), cookie("web_rpc_proxy_session", "s-work")] },
    { browser: "firefox", profile: "default-release", cookies: [cookie("_session", "s-fox")] },
  ];

  function context(entry: CredentialContext["entry"] = { id: "augment" }, env: Record<string, string> = {}) {
    const queries: CookieQuery[] = [];
    const browsers: BrowserAccess = {
      cookies: {
        read: async (query) => {
          queries.push(query);
          return { candidates: candidates.filter((c) => query.browsers.includes(c.browser)), notes: [] };
        },
      },
      localStorage: { read: async () => ({ entries: [], notes: [] }) },
      secrets: new MemorySecretStore(),
      interactive: false,
    };
    const ctx: CredentialContext = {
      env,
      entry,
      now: () => new Date("2026-03-31T12:00:00Z"),
      sourceMode: "auto",
      processes: new NodeProcessRunner(""),
      browsers,
    };
    return { ctx, queries };
  }

  it("takes the first profile, in the reference's browser order, that holds a session cookie, and sends all its cookies", async () => {
    const { ctx, queries } = context();
    expect(await augmentCookie.resolve(ctx)).toBe("ajs_anonymous_id=anon; web_rpc_proxy_session=s-work");
    expect(queries).toEqual([{ hosts: ["app.augmentcode.com", "augmentcode.com"], browsers: BROWSERS }]);
    expect(BROWSERS.slice(0, 11)).toEqual([
      "safari",
      "chrome",
      "chrome-beta",
      "chrome-canary",
      "edge",
      "edge-beta",
      "brave",
      "arc",
      "dia",
      "arc-beta",
      "firefox",
    ]);
    // the spec's list (section 5, provider G) is all in it
    expect(BROWSERS).toEqual(expect.arrayContaining(["chrome-beta", "chrome", "chrome-canary", "arc", "safari"]));
  });

  it("takes a pasted header first, as it is, and follows the entry's own browser order", async () => {
    expect(await augmentCookie.resolve(context({ id: "augment" }, { AUGMENT_COOKIE: "theme=dark; x=1" }).ctx)).toBe("theme=dark; x=1");
    expect(await augmentCookie.resolve(context({ id: "augment", browsers: ["firefox"] }).ctx)).toBe("_session=s-fox");
    expect(await augmentCookie.resolve(context({ id: "augment", cookieSource: "manual" }).ctx)).toBeNull();
  });
});

describe("augment reads Linux browser stores", () => {
  /** A Chrome profile as Chrome on Linux writes it: ~/.config/google-chrome/Default/Cookies, schema 24, `v10` values. */
  function linuxChrome(home: string, cookies: { host: string; name: string; value: string }[]): void {
    const dir = join(home, ".config", "google-chrome", "Default");
    mkdirSync(dir, { recursive: true });
    const db = new Database(join(dir, "Cookies"));
    db.exec(`CREATE TABLE meta (key TEXT, value TEXT); INSERT INTO meta VALUES ('version', '24');
      CREATE TABLE cookies (host_key TEXT, name TEXT, value TEXT, encrypted_value BLOB, path TEXT, expires_utc INTEGER,
        is_secure INTEGER, last_update_utc INTEGER, top_frame_site_key TEXT)`);
    const insert = db.prepare("INSERT INTO cookies VALUES (?, ?, '', ?, '/', 0, 1, 0, '')");
    for (const { host, name, value } of cookies) {
      const plain = Buffer.concat([createHash("sha256").update(host).digest(), Buffer.from(value)]);
      const cipher = createCipheriv("aes-128-cbc", PEANUTS_KEY, Buffer.alloc(16, 0x20));
      insert.run(host, name, Buffer.concat([Buffer.from("v10"), cipher.update(plain), cipher.final()]));
    }
    db.close();
  }

  it("takes the session from Chrome's Linux cookie store and answers from the web", async () => {
    const home = tempDir("quotabar-augment-linux-");
    linuxChrome(home, [
      { host: ".augmentcode.com", name: "_session", value: AUGMENT_TEST_SESSION },
      { host: "app.augmentcode.com", name: "ajs_anonymous_id", value: "anon-7" },
      { host: ".example.com", name: "_session", value: "not-for-augment" },
    ]);
    const env = { ...sim.env({ AUGMENT_COOKIE: undefined, ...NO_AUGGIE }), HOME: home };
    const secrets = new MemorySecretStore();
    const core = createNodeCore({ env, browsers: { sqlite: new BetterSqlite(), secrets, interactive: false, platform: "linux" } });
    const [usage] = (await core.usage.usage({ providers: ["augment"] })).providers;
    expect(usage).toMatchObject({ ok: true, source: "web", plan: "Developer" });
    const sent = String(sim.sim.requests.find((r) => r.path === "/api/credits")?.headers.cookie);
    expect(sent.split("; ").sort()).toEqual(["_session=" + AUGMENT_TEST_SESSION, "ajs_anonymous_id=anon-7"]);
    expect(existsSync(join(home, ".config", "google-chrome", "Default", "Cookies"))).toBe(true);
    expect(JSON.parse((await secrets.get("quotabar", "cookie:augment")) as string).source).toBe("chrome/Default");
  });
});

describe("augment policy", () => {
  it("takes remaining + consumed as the limit without usageUnitsAvailable, and the reference's 0 % without a limit", () => {
    const snapshot = (credits: { remaining: number | null; consumed: number | null; available: number | null }) =>
      augmentWebSnapshot({ credits, subscription: null }).primary;
    expect(snapshot({ remaining: 5_000, consumed: 45_000, available: 0 })).toMatchObject({ usedPercent: 90, limit: 50_000 });
    expect(snapshot({ remaining: 5_000, consumed: null, available: 20_000 })).toMatchObject({ usedPercent: 75, used: 15_000 });
    expect(snapshot({ remaining: 5_000, consumed: null, available: null })).toMatchObject({ usedPercent: 0, used: null, limit: null });
  });

  it("writes the CLI's plan as credits a month, and drops a cycle end that is no day", () => {
    const reading = { remaining: 1, used: 1, limit: 2, monthlyCredits: 1_234_567, cycleEnd: { year: 2026, month: 2, day: 30 } };
    expect(augmentCliSnapshot(reading)).toMatchObject({ plan: "1,234,567 credits/month", primary: { usedPercent: 50, resetsAt: null } });
  });
});
