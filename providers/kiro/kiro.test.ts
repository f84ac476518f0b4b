import { execFileSync } from "node:child_process";
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { stillRunning } from "../../test/helpers/processes.js";
import { createQuotabar } from "../../index.js";
import { QuotabarError } from "../../domain/errors.js";
import { terminalText } from "../kit/index.js";
import { cliFailed } from "./errors.js";
import { kiroSnapshot, nextOccurrence, type KiroReading } from "./policy.js";
import { kiroLogRoot } from "./log-file.js";
import { kiroLogSnapshot, type KiroLimits } from "./policy-log.js";
import { CHILD_PID_FILE, KIRO_CLI_SCENARIOS, writeFakeKiroCli, writeKiroLog } from "./simulator.js";
import { usageLimitsOf } from "./usage-limits.js";
import { plainOutput, usageReading } from "./usage-text.js";

const FIXTURES = join(import.meta.dirname, "fixtures");
const fixture = (name: string) => readFileSync(join(FIXTURES, name), "utf8");
const homes: string[] = [];
afterAll(() => homes.forEach((home) => rmSync(home, { recursive: true, force: true })));

/** A fresh HOME with a `bin/` folder for the stand-in. */
function freshHome(): { home: string; bin: string } {
  const home = mkdtempSync(join(tmpdir(), "quotabar-kiro-"));
  homes.push(home);
  return { home, bin: join(home, "bin") };
}

/** A kiro-cli of the test's own on PATH: a POSIX shell script with this body. */
function ownKiroCli(body: string): string {
  const { home, bin } = freshHome();
  mkdirSync(bin);
  writeFileSync(join(bin, "kiro-cli"), `#!/bin/sh\n${body}\n`);
  chmodSync(join(bin, "kiro-cli"), 0o755);
  return home;
}

/** The library, with the real process runner, on a HOME whose bin/ is first on PATH. */
async function usageIn(home: string, timeoutMs = 8_000, path = `${join(home, "bin")}:${process.env.PATH}`, source?: string) {
  const doc = await createQuotabar({ env: { HOME: home, PATH: path } }).usage({
    providers: ["kiro"],
    timeoutMs,
    ...(source ? { source } : {}),
  });
  return doc.providers[0]!;
}

async function kiro(scenario: string, timeoutMs?: number) {
  const { home, bin } = freshHome();
  writeFakeKiroCli(bin, scenario);
  return { usage: await usageIn(home, timeoutMs), bin };
}

/** Local midnight of month/day, this year's or next year's, whichever is still ahead. */
function aheadLocal(month: number, day: number): string {
  const now = new Date();
  const thisYear = new Date(now.getFullYear(), month - 1, day);
  return (thisYear > now ? thisYear : new Date(now.getFullYear() + 1, month - 1, day)).toISOString();
}

const IDENTITY = [
  { label: "Account", value: "dev@example.com" },
  { label: "Signed in with", value: "Builder ID" },
];

describe("kiro through the library, with a stand-in kiro-cli on PATH", () => {
  it("reads the unboxed table: plan, monthly credits with the reset, bonus credits with the expiry", async () => {
    const { usage } = await kiro("ok");
    expect(usage).toMatchObject({ ok: true, source: "cli", plan: "Kiro Pro", error: null, details: IDENTITY });
    // its pace depends on today's date, not on what the CLI printed
    const { pace: _pace, ...primary } = usage.primary ?? {};
    expect(primary).toEqual({
      label: "Credits",
      usedPercent: 42,
      used: 420.37,
      limit: 1000,
      unit: "credits",
      unlimited: false,
      resetsAt: aheadLocal(4, 1),
      // monthly credits: the calendar month up to the reset on 1 April (March, 31 days)
      windowMinutes: 31 * 1440,
      note: null,
    });
    expect(usage.secondary).toMatchObject({ label: "Bonus credits", usedPercent: 2.5, used: 12.5, limit: 500, note: "expires in 23d" });
    const expiry = new Date();
    expiry.setDate(expiry.getDate() + 23);
    expect(Math.abs(Date.parse(usage.secondary!.resetsAt!) - expiry.getTime())).toBeLessThan(3_600_000);
  });

  it("reads the boxed table of kiro-cli 1.23, bonus credits on the line under their label included", async () => {
    const { usage } = await kiro("boxed");
    expect(usage).toMatchObject({ ok: true, plan: "Kiro Free" });
    expect(usage.primary).toMatchObject({ usedPercent: 100, used: 50, limit: 50, resetsAt: aheadLocal(1, 1) });
    expect(usage.secondary).toMatchObject({ label: "Bonus credits", usedPercent: 0, used: 0, limit: 100, note: "expires in 88d" });
  });

  it("shows a plan managed by an administrator as 0 % with a note, as kiro-cli 1.24 prints it", async () => {
    const { usage } = await kiro("managed");
    expect(usage).toMatchObject({ ok: true, plan: "Q Developer Pro", secondary: null });
    expect(usage.primary).toMatchObject({ usedPercent: 0, used: null, limit: null, resetsAt: null, note: "Managed by your administrator" });
  });

  it("reads the kiro-cli 2.x header line: plan, ISO reset date, credits used, overages and cost", async () => {
    const { usage } = await kiro("estimated_usage");
    expect(usage).toMatchObject({ ok: true, plan: "Kiro Free" });
    expect(usage.primary).toMatchObject({ usedPercent: null, used: 12.5, limit: null, resetsAt: new Date(2026, 5, 1).toISOString() });
    expect(usage.details).toEqual([...IDENTITY, { label: "Overages", value: "Disabled" }, { label: "Estimated cost", value: "$0.00" }]);
  });

  it("stops at the login check when whoami says not logged in", async () => {
    const { usage } = await kiro("not_logged_in");
    expect(usage.error).toMatchObject({ code: "unauthorized", message: "Not logged in to Kiro. Run 'kiro-cli login' first." });
    expect(usage.error?.hint).toContain("kiro-cli login --use-device-flow");
  });

  it("recognises the auth-portal failure of /usage on stderr as not logged in", async () => {
    const { usage } = await kiro("auth_portal");
    expect(usage.error).toMatchObject({ code: "unauthorized", message: "Not logged in to Kiro. Run 'kiro-cli login' first." });
  });

  it("reads a table that mentions kiro-cli login in a tip, rather than calling it a login prompt", async () => {
    const table = readFileSync(join(FIXTURES, "managed.txt"), "utf8");
    const usage = await usageIn(
      ownKiroCli(`[ "$1" = whoami ] && exit 0\ncat <<'END'\n${table}Tip: switch accounts with kiro-cli login\nEND`),
    );
    expect(usage).toMatchObject({ ok: true, plan: "Q Developer Pro" });
  });

  it("goes on to /usage when whoami fails for another reason (an older CLI), without an identity", async () => {
    const { usage } = await kiro("old_whoami");
    expect(usage).toMatchObject({ ok: true, plan: "Kiro Pro", details: [] });
  });

  it("says the backend failed when kiro-cli could not retrieve usage information", async () => {
    const { usage } = await kiro("backend_failure");
    expect(usage.error).toMatchObject({ code: "upstream", message: "Kiro CLI could not retrieve usage information." });
  });

  it("reports a crash with its exit status and first line only", async () => {
    const { usage } = await kiro("crash");
    expect(usage.error).toMatchObject({
      code: "upstream",
      message: "Kiro CLI failed with status 101: thread 'main' panicked at crates/chat-cli/src/cli/chat/mod.rs:412:9:",
    });
    expect(JSON.stringify(usage)).not.toContain("RUST_BACKTRACE");
  });

  it("reports a non-zero exit without output by its status", async () => {
    const usage = await usageIn(ownKiroCli('[ "$1" = whoami ] && { echo "Logged in with Google"; exit 0; }\nexit 3'));
    expect(usage.error).toMatchObject({ code: "upstream", message: "Kiro CLI failed with status 3." });
  });

  it("is a parse error when /usage prints nothing, or nothing it knows", async () => {
    const { usage } = await kiro("empty");
    expect(usage.error).toMatchObject({ code: "parse", message: "Failed to parse Kiro usage: Empty output from kiro-cli." });
    const other = await usageIn(ownKiroCli('[ "$1" = whoami ] && exit 0\nprintf "\\033[1mWelcome to Kiro!\\033[0m\\n"'));
    expect(other.error).toMatchObject({
      code: "parse",
      message: "Failed to parse Kiro usage: No recognizable usage patterns found. Kiro CLI output format may have changed.",
    });
  });

  it("kills a silent hang with its process group and says Kiro CLI timed out", async () => {
    const { usage, bin } = await kiro("hang", 1_500);
    expect(usage.error).toMatchObject({ code: "timeout", message: "Kiro CLI timed out." });
    const child = Number(readFileSync(join(bin, CHILD_PID_FILE), "utf8"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stillRunning(child)).toBe(false);
  });

  it("reads the table of a CLI that printed it and then hung, and kills the group", async () => {
    const { usage, bin } = await kiro("table_then_hang", 1_500);
    expect(usage).toMatchObject({ ok: true, plan: "Kiro Pro" });
    expect(usage.primary?.usedPercent).toBe(42);
    const child = Number(readFileSync(join(bin, CHILD_PID_FILE), "utf8"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stillRunning(child)).toBe(false);
  });

  it("finds kiro-cli in ~/.local/bin of HOME when it is not on PATH; found means set up, without running it", async () => {
    const { home } = freshHome();
    writeFakeKiroCli(join(home, ".local", "bin"), "ok");
    expect(await usageIn(home, 8_000, "/usr/bin:/bin")).toMatchObject({ ok: true, plan: "Kiro Pro" });
    const listing = await createQuotabar({ env: { HOME: home, PATH: "/usr/bin:/bin" } }).listProviders();
    expect(listing.find((p) => p.id === "kiro")).toMatchObject({ credentialsFound: true, enabled: true, supported: true });
  });

  const installedHere = ["/opt/homebrew/bin/kiro-cli", "/usr/local/bin/kiro-cli"].some(existsSync);
  it.skipIf(installedHere)("says kiro-cli is not installed, with how to install it, when it is nowhere", async () => {
    const { home } = freshHome();
    const usage = await usageIn(home, 8_000, "/usr/bin:/bin");
    expect(usage.error).toMatchObject({ code: "not_installed", message: "kiro-cli not found. Install it from https://kiro.dev" });
    expect(usage.error?.hint).toContain("Install Kiro CLI (https://kiro.dev) and run `kiro-cli login`.");
    const listing = await createQuotabar({ env: { HOME: home, PATH: "/usr/bin:/bin" } }).listProviders();
    expect(listing.find((p) => p.id === "kiro")).toMatchObject({ credentialsFound: false, enabled: false });
  });

  it("refuses an unknown stand-in scenario by listing the known ones", () => {
    expect(KIRO_CLI_SCENARIOS).toContain("ok");
    expect(() => writeFakeKiroCli(freshHome().bin, "nope")).toThrow(/known: ok, boxed/);
  });
});

describe("kiro from Kiro's own log (q-client.log), before kiro-cli", () => {
  /** PATH without any kiro-cli: only the home's bin/, and the system's own folders. */
  const NO_CLI = (home: string) => `${join(home, "bin")}:/usr/bin:/bin`;
  /** A kiro-cli that leaves a mark when it runs, and fails. */
  const markingCli = () => ownKiroCli('touch "$HOME/kiro-cli-ran"\nexit 1');
  const ran = (home: string) => existsSync(join(home, "kiro-cli-ran"));

  it("reads the last GetUsageLimits answer of a fresh log, and runs no kiro-cli", async () => {
    const home = markingCli();
    writeKiroLog(home, "q-client.log", { minutesAgo: 2 });
    const usage = await usageIn(home);
    expect(usage).toMatchObject({ ok: true, source: "local", plan: "Kiro Pro", secondary: null, tertiary: null, error: null });
    // the later, cut-off line is passed over; the earlier answer (398.2) is not the last one
    expect(usage.primary).toEqual({
      label: "Credits",
      usedPercent: 42.04,
      used: 420.37,
      limit: 1000,
      unit: "credits",
      unlimited: false,
      resetsAt: "2026-04-01T00:00:00.000Z",
      windowMinutes: 31 * 1_440,
      note: null,
    });
    expect(usage.details).toEqual([{ label: "Overages", value: "Disabled" }]);
    expect(ran(home)).toBe(false);
  });

  it("reads the overage: plan credits less the overage, the overage of its cap, the charges; a reset in epoch seconds", async () => {
    const { home } = freshHome();
    writeKiroLog(home, "q-client-overage.log", { minutesAgo: 1 });
    const usage = await usageIn(home, 8_000, NO_CLI(home));
    expect(usage).toMatchObject({ ok: true, source: "local", plan: "Kiro Pro+" });
    expect(usage.primary).toMatchObject({ used: 2000, limit: 2000, usedPercent: 100, resetsAt: "2026-04-01T00:00:00.000Z" });
    expect(usage.tertiary).toMatchObject({
      label: "Overage",
      used: 150.5,
      limit: 10_000,
      usedPercent: 1.51,
      resetsAt: "2026-04-01T00:00:00.000Z",
      windowMinutes: 31 * 1_440,
    });
    expect(usage.details).toEqual([
      { label: "Overages", value: "Enabled" },
      { label: "Overage charges", value: "$6.02" },
    ]);
  });

  it("shows an active free trial as bonus credits that reset when it expires", async () => {
    const { home } = freshHome();
    writeKiroLog(home, "q-client-trial.log", { minutesAgo: 1 });
    const usage = await usageIn(home, 8_000, NO_CLI(home));
    expect(usage).toMatchObject({ ok: true, plan: "Kiro Free", primary: { used: 12.4, limit: 50, usedPercent: 24.8 } });
    expect(usage.secondary).toMatchObject({ label: "Bonus credits", used: 106.11, limit: 500, resetsAt: "2026-03-27T15:09:55.196Z" });
  });

  it("takes the log written last, whichever launch it is in", async () => {
    for (const [older, newer, plan] of [
      ["q-client-overage.log", "q-client.log", "Kiro Pro"],
      ["q-client.log", "q-client-overage.log", "Kiro Pro+"],
    ] as const) {
      const { home } = freshHome();
      writeKiroLog(home, newer, { minutesAgo: 1 });
      writeKiroLog(home, older, { minutesAgo: 9 });
      expect((await usageIn(home, 8_000, NO_CLI(home))).plan).toBe(plan);
    }
  });

  it("hands an answer older than 15 minutes over to kiro-cli; without it, says how old the answer is", async () => {
    const { home, bin } = freshHome();
    writeKiroLog(home, "q-client.log", { minutesAgo: 90 });
    const stale = await usageIn(home, 8_000, NO_CLI(home));
    expect(stale.error).toMatchObject({
      code: "not_configured",
      message: "Kiro's last usage answer in its log is 90 min old; one from the last 15 minutes is needed.",
    });
    expect(stale.error?.hint).toContain("install kiro-cli");
    writeFakeKiroCli(bin, "ok");
    expect(await usageIn(home)).toMatchObject({ ok: true, source: "cli", plan: "Kiro Pro", details: IDENTITY });
  });

  it("judges the answer's own time, not the file's: a fresh file whose last answer is old hands over too", async () => {
    const { home } = freshHome();
    const log = writeKiroLog(home, "q-client.log", { minutesAgo: 40 });
    utimesSync(log, new Date(), new Date());
    expect((await usageIn(home, 8_000, NO_CLI(home))).error?.message).toMatch(/is 40 min old/);
  });

  it("hands a log without an answer, or with one it cannot read, over to kiro-cli; --source local names the problem", async () => {
    const { home, bin } = freshHome();
    writeKiroLog(home, "q-client-no-answer.log", { minutesAgo: 1 });
    expect((await usageIn(home, 8_000, NO_CLI(home))).error).toMatchObject({
      code: "not_configured",
      message: "Kiro's log holds no usage answer yet.",
    });
    const other = freshHome().home;
    const log = writeKiroLog(other, "q-client.log", { minutesAgo: 1 });
    writeFileSync(log, readFileSync(log, "utf8").replaceAll('"resourceType":"CREDIT"', '"resourceType":"AGENTIC_REQUEST"'));
    expect((await usageIn(other, 8_000, NO_CLI(other), "local")).error).toMatchObject({
      code: "parse",
      message: "Failed to parse Kiro usage: usageBreakdownList has no CREDIT entry.",
    });
    writeFakeKiroCli(join(other, "bin"), "ok");
    expect(await usageIn(other)).toMatchObject({ ok: true, source: "cli" });
    writeFakeKiroCli(bin, "ok");
    expect(await usageIn(home)).toMatchObject({ ok: true, source: "cli" });
  });

  it("reads only the last 4 MB of a large log", async () => {
    const { home } = freshHome();
    const log = writeKiroLog(home, "q-client.log", { minutesAgo: 1 });
    const filler = `${readFileSync(log, "utf8").split("\n")[0]}\n`; // a ListAvailableProfiles line, fresh
    appendFileSync(log, filler.repeat(Math.ceil((5 << 20) / filler.length)));
    expect((await usageIn(home, 8_000, NO_CLI(home), "local")).error?.message).toBe("Kiro's log holds no usage answer yet.");
  });

  it("reads only a regular file: a FIFO in the log's place is no log, and nothing waits on it", async () => {
    const { home } = freshHome();
    const log = writeKiroLog(home, "q-client.log", { minutesAgo: 1 });
    rmSync(log);
    execFileSync("mkfifo", [log]);
    expect((await usageIn(home, 8_000, NO_CLI(home), "local")).error?.message).toMatch(/^No Kiro log \(q-client\.log\) under /);
  });

  it("with --source local and no log, says where it looked; found, Kiro is set up without kiro-cli", async () => {
    const { home } = freshHome();
    const root = join(home, ".config", "Kiro", "logs");
    expect((await usageIn(home, 8_000, NO_CLI(home), "local")).error).toMatchObject({
      code: "not_configured",
      message: `No Kiro log (q-client.log) under ${root}.`,
    });
    writeKiroLog(home, "q-client.log", { minutesAgo: 500 });
    const listing = await createQuotabar({ env: { HOME: home, PATH: NO_CLI(home) } }).listProviders();
    expect(listing.find((p) => p.id === "kiro")).toMatchObject({ credentialsFound: true, enabled: true });
  });

  it("looks where Kiro keeps its logs: ~/Library/Application Support on macOS, $XDG_CONFIG_HOME or ~/.config on Linux", () => {
    expect(kiroLogRoot({ HOME: "/Users/sam" }, "darwin")).toBe("/Users/sam/Library/Application Support/Kiro/logs");
    expect(kiroLogRoot({ HOME: "/home/sam" }, "linux")).toBe("/home/sam/.config/Kiro/logs");
    expect(kiroLogRoot({ HOME: "/home/sam", XDG_CONFIG_HOME: "/xdg" }, "linux")).toBe("/xdg/Kiro/logs");
    expect(kiroLogRoot({ HOME: "C:/Users/sam" }, "win32")).toBeNull();
  });
});

describe("kiro's logged usage answer", () => {
  const answer = (entry: Record<string, unknown>, top: Record<string, unknown> = {}) =>
    usageLimitsOf({ usageBreakdownList: [{ resourceType: "CREDIT", currentUsage: 5, usageLimit: 50, ...entry }], ...top });

  it("takes the precise counts first, and nextDateReset as ISO (with a space), epoch seconds, or the answer's own", () => {
    expect(answer({ currentUsageWithPrecision: 5.25, nextDateReset: "2026-02-01 00:00:00+00:00" })).toMatchObject({
      credits: { used: 5.25, limit: 50 },
      resetsAt: "2026-02-01T00:00:00.000Z",
    });
    expect(answer({ nextDateReset: 1769904000.0 }).resetsAt).toBe("2026-02-01T00:00:00.000Z");
    expect(answer({}, { nextDateReset: "1769904000" }).resetsAt).toBe("2026-02-01T00:00:00.000Z");
  });

  it("names a missing or negative count, and an answer without a CREDIT entry", () => {
    expect(() => answer({ usageLimit: undefined })).toThrowError(
      "Failed to parse Kiro usage: usageBreakdownList[0].usageLimitWithPrecision is missing.",
    );
    expect(() => answer({ currentUsage: -1 })).toThrowError(
      "Failed to parse Kiro response: usageBreakdownList[0].currentUsage: must not be negative (got -1)",
    );
    expect(() => answer({ currentOveragesWithPrecision: -0.5 })).toThrowError(
      /usageBreakdownList\[0\]\.currentOveragesWithPrecision: must not be negative/,
    );
    const trial = { freeTrialStatus: "ACTIVE", currentUsage: -3, usageLimit: 500 };
    expect(() => answer({ freeTrialInfo: trial })).toThrowError(
      /usageBreakdownList\[0\]\.freeTrialInfo\.currentUsage: must not be negative/,
    );
    expect(() => usageLimitsOf({ usageBreakdownList: [{ resourceType: "AGENTIC_REQUEST" }] })).toThrowError(/has no CREDIT entry/);
    expect(() => usageLimitsOf({})).toThrowError(/usageBreakdownList is missing/);
  });

  it("counts only an active trial, and an overage status from overageStatus or overageEnabled", () => {
    const trial = { currentUsageWithPrecision: 500, usageLimitWithPrecision: 500, freeTrialExpiry: "2026-03-01T00:00:00Z" };
    expect(answer({ freeTrialInfo: { ...trial, freeTrialStatus: "EXPIRED" } }).trial).toBeNull();
    expect(answer({ freeTrialInfo: { ...trial, freeTrialStatus: "ACTIVE" } }).trial).toEqual({
      used: 500,
      limit: 500,
      expiresAt: "2026-03-01T00:00:00.000Z",
    });
    expect(answer({}, { overageConfiguration: { overageEnabled: false } }).overage.enabled).toBe(false);
    expect(answer({ currency: "usd; rm -rf" }).overage.currency).toBeNull();
  });
});

describe("kiro log policy", () => {
  const now = new Date("2026-03-10T12:00:00Z");
  const limits = (overrides: Partial<KiroLimits> = {}): KiroLimits => ({
    plan: "Kiro Pro",
    credits: { used: 100, limit: 1000 },
    resetsAt: "2026-04-01T00:00:00.000Z",
    trial: null,
    overage: { enabled: null, used: null, cap: null, charges: null, currency: null },
    ...overrides,
  });

  it("notes a trial's days to expiry, and shows no overage meter while overage is off and unused", () => {
    const snapshot = kiroLogSnapshot(limits({ trial: { used: 10, limit: 100, expiresAt: "2026-03-27T15:09:55.196Z" } }), now);
    expect(snapshot.secondary).toMatchObject({ usedPercent: 10, note: "expires in 17d", windowMinutes: null });
    const off = kiroLogSnapshot(limits({ overage: { enabled: false, used: 0, cap: 10_000, charges: 0, currency: "USD" } }), now);
    expect(off.tertiary).toBeNull();
    expect(off.details).toEqual([{ label: "Overages", value: "Disabled" }]);
  });

  it("writes charges in another currency with its code", () => {
    const snapshot = kiroLogSnapshot(limits({ overage: { enabled: true, used: 10, cap: 100, charges: 1234.5, currency: "EUR" } }), now);
    expect(snapshot.details).toContainEqual({ label: "Overage charges", value: "1,234.5 EUR" });
  });
});

describe("kiro output parsing", () => {
  const read = (name: string) => usageReading(plainOutput(fixture(name)));

  it("strips colours, OSC titles and links, stray escapes and carriage returns, keeping lines", () => {
    const raw =
      "\u001b]0;kiro\u0007\u001b[1;32mPlan:\u001b[0m Pro\r\n\u001b]8;;https://kiro.dev\u001b\\link\u001b]8;;\u001b\\\u001b=\u001b(B\rnext\u0007";
    expect(terminalText(raw)).toBe("Plan: Pro\nlink\nnext");
  });

  it("reads each sample of the reference", () => {
    expect(read("legacy.txt")).toMatchObject({
      plan: "Kiro Pro",
      percent: 42,
      credits: { used: 420.37, total: 1000 },
      resetsOn: { year: null, month: 4, day: 1 },
      bonus: { used: 12.5, total: 500 },
      bonusExpiresInDays: 23,
      managed: false,
    });
    expect(read("boxed.txt")).toMatchObject({ plan: "Kiro Free", percent: 100, bonus: { used: 0, total: 100 }, bonusExpiresInDays: 88 });
    expect(read("managed.txt")).toMatchObject({ plan: "Q Developer Pro", percent: null, credits: null, managed: true });
    expect(read("estimated-usage.txt")).toMatchObject({
      plan: "Kiro Free",
      creditsUsed: 12.5,
      resetsOn: { year: 2026, month: 6, day: 1 },
      overages: "Disabled",
      estimatedCostUsd: 0,
    });
  });

  it("falls back to used of covered when there is no bar, and keeps a plan name with a plus", () => {
    const reading = usageReading("| KIRO PRO+ |\n(250 of 1000 covered in plan)");
    expect(reading).toMatchObject({ plan: "Kiro Pro+", percent: null, credits: { used: 250, total: 1000 } });
    expect(kiroSnapshot({ ...none, ...reading }, new Date()).primary?.usedPercent).toBe(25);
  });

  it("stays linear on hostile text (long bars, pipes and brackets with no number after them)", () => {
    const hostile = [
      "█".repeat(200_000),
      "| ".repeat(100_000),
      "(1 of ".repeat(50_000),
      "resets on ".repeat(30_000),
      " ".repeat(200_000) + "x",
    ];
    for (const text of hostile) expect(() => usageReading(plainOutput(text))).toThrow(QuotabarError);
  });

  it("never throws anything but a parse error on mutated samples", () => {
    const samples = ["legacy.txt", "boxed.txt", "managed.txt", "estimated-usage.txt"].map(fixture);
    const mutated = fc
      .tuple(fc.constantFrom(...samples), fc.nat(), fc.nat(), fc.string({ unit: "binary", maxLength: 30 }))
      .map(([text, a, b, insert]) => {
        const [from, to] = [a % text.length, b % text.length].sort((x, y) => x - y) as [number, number];
        return text.slice(0, from) + insert + text.slice(to);
      });
    fc.assert(
      fc.property(mutated, (text) => {
        try {
          const snapshot = kiroSnapshot({ ...none, ...usageReading(plainOutput(text)) }, new Date("2026-11-20T10:00:00Z"));
          for (const meter of [snapshot.primary, snapshot.secondary]) {
            if (meter?.usedPercent != null) expect(meter.usedPercent).toBeGreaterThanOrEqual(0);
          }
        } catch (error) {
          expect(error).toBeInstanceOf(QuotabarError);
          expect((error as QuotabarError).code).toBe("parse");
        }
      }),
      { numRuns: 300 },
    );
  });

  it("words a crash from the first plain line, bounded", () => {
    const error = cliFailed(2, plainOutput(`\u001b[31merror:\u001b[0m ${"x".repeat(500)}\nsecond line`));
    expect(error.message).toBe(`Kiro CLI failed with status 2: error: ${"x".repeat(193)}...`);
    expect(cliFailed(null, "").message).toBe("Kiro CLI was stopped by a signal.");
  });
});

const none: KiroReading = {
  plan: null,
  percent: null,
  credits: null,
  creditsUsed: null,
  resetsOn: null,
  bonus: null,
  bonusExpiresInDays: null,
  managed: false,
  overages: null,
  estimatedCostUsd: null,
  account: null,
  signedInWith: null,
};

describe("kiro policy", () => {
  const now = new Date(2026, 10, 20, 10, 0, 0); // 20 November 2026, 10:00 local

  it("puts a reset day without a year at its next local midnight", () => {
    expect(nextOccurrence({ year: null, month: 12, day: 1 }, now)).toBe(new Date(2026, 11, 1).toISOString());
    expect(nextOccurrence({ year: null, month: 4, day: 1 }, now)).toBe(new Date(2027, 3, 1).toISOString());
    expect(nextOccurrence({ year: null, month: 11, day: 20 }, now)).toBe(new Date(2027, 10, 20).toISOString());
    expect(nextOccurrence({ year: null, month: 2, day: 29 }, now)).toBe(new Date(2028, 1, 29).toISOString());
  });

  it("drops a day that does not exist and a year before 2000", () => {
    expect(nextOccurrence({ year: null, month: 13, day: 1 }, now)).toBeNull();
    expect(nextOccurrence({ year: 2026, month: 2, day: 30 }, now)).toBeNull();
    expect(nextOccurrence({ year: 1999, month: 1, day: 1 }, now)).toBeNull();
  });

  it("sets the bonus expiry that many calendar days ahead, and shows no bonus meter of a zero total", () => {
    const snapshot = kiroSnapshot({ ...none, percent: 10, bonus: { used: 5, total: 20 }, bonusExpiresInDays: 3 }, now);
    expect(snapshot.secondary).toMatchObject({
      usedPercent: 25,
      resetsAt: new Date(2026, 10, 23, 10, 0, 0).toISOString(),
      note: "expires in 3d",
    });
    expect(kiroSnapshot({ ...none, percent: 10, bonus: { used: 0, total: 0 } }, now).secondary).toBeNull();
    expect(
      kiroSnapshot({ ...none, percent: 10, bonus: { used: 1, total: 2 }, bonusExpiresInDays: 1e12 }, now).secondary?.resetsAt,
    ).toBeNull();
  });

  it("clamps a percent over 100 and keeps covered credits of a zero total off the meter", () => {
    const snapshot = kiroSnapshot({ ...none, percent: 250, credits: { used: 3, total: 0 } }, now);
    expect(snapshot.primary).toMatchObject({ usedPercent: 100, used: null, limit: null });
  });
});
