import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useSimulator } from "../../test/helpers/harness.js";
import { browserDouble, storedCookie, usageWithBrowsers, type BrowserDouble } from "../../test/helpers/browser-double.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { meter } from "../../domain/meter.js";
import { cookiePairs, normalizeCookieHeader } from "../kit/index.js";
import { codeApiUsagesUrl } from "./code-api.js";
import { KIMI_TIERS, kimiSnapshot, type KimiMembership, type KimiReading } from "./policy.js";
import { codeWeekMeter, totalUsageDetail } from "./policy-membership.js";
import { windowMinutes, windowWords } from "./policy-rate-limit.js";
import { KIMI_PATHS, KIMI_TEST_API_KEY, KIMI_TEST_CLAIMS, KIMI_TEST_CLI_TOKEN, KIMI_TEST_TOKEN } from "./simulator.js";
import { kimiAuthTokenFromText, kimiJwtClaims } from "./token.js";
import { codeApiUsage, webUsage } from "./usage-body.js";
import { kimiHeaders } from "./web.js";

const sim = useSimulator();
const FIXTURES = join(import.meta.dirname, "fixtures");

type Env = Record<string, string | undefined>;
type Request = { providers?: string[]; source?: string };

async function kimi(extra: Env = {}, timeoutMs?: number, request: Request = {}) {
  const doc = await sim.quotabar(extra, timeoutMs).usage({ providers: ["kimi"], ...request });
  return doc.providers[0]!;
}

/** The usage of one simulator scenario. */
async function kimiIn(scenario: string, extra: Env = {}, request: Request = {}, timeoutMs?: number) {
  sim.sim.setScenario("kimi", scenario);
  return kimi(extra, timeoutMs, request);
}

/** Only the console's cookie: the web route, as before the Kimi Code API existed. */
const WEB_ONLY: Env = { KIMI_CODE_API_KEY: undefined };
/** Only the API key: no kimi-auth token, so no membership call either. */
const KEY_ONLY: Env = { KIMI_AUTH_TOKEN: undefined };

async function withConfig<T>(entry: object, run: () => Promise<T>): Promise<T> {
  const cleanup = writeConfig(sim.home, { providers: [{ id: "kimi", ...entry }] });
  return run().finally(cleanup);
}

/** A Kimi Code CLI home holding `fixtures/cli-credentials.json` (optionally changed) and a device id. */
function cliHome(credentials?: object): string {
  const home = mkdtempSync(join(sim.home, "kimi-code-"));
  mkdirSync(join(home, "credentials"));
  const file = join(home, "credentials", "kimi-code.json");
  if (credentials) writeFileSync(file, JSON.stringify(credentials));
  else copyFileSync(join(FIXTURES, "cli-credentials.json"), file);
  writeFileSync(join(home, "device_id"), "device-cli-3f2a\n");
  return home;
}

const { codeApi: CODE_API_PATH, getUsages: GET_USAGES_PATH, stats: STATS_PATH } = KIMI_PATHS;
const requestTo = (path: string) => sim.sim.requests.find((r) => r.path === path);

/** A request-counted meter as the document shows it. */
const requestMeter = (label: string, fields: object) => ({ label, unit: "requests", unlimited: false, note: null, ...fields });
/** The 5-hour window of the flat and root-level Code API fixtures (200 requests, the same reset). */
const flatFiveHour = (used: number, usedPercent: number) =>
  requestMeter("5-hour", {
    usedPercent,
    used,
    limit: 200,
    resetsAt: "2026-03-10T16:41:07.118Z",
    windowMinutes: 300,
    note: "200 requests per 5 hours",
  });

const MODERATO_WEEKLY = requestMeter("Weekly", {
  usedPercent: 29.83,
  used: 611,
  limit: 2048,
  resetsAt: "2026-03-16T00:00:00.000Z",
  windowMinutes: 10080,
});
const MODERATO_RATE = requestMeter("5-hour", {
  usedPercent: 28.5,
  used: 57,
  limit: 200,
  resetsAt: "2026-03-10T16:41:07.118Z",
  windowMinutes: 300,
  note: "200 requests per 5 hours",
});

describe("kimi: the Kimi Code API (auto's first route)", () => {
  it("maps today's body: weekly primary, 5-hour secondary, tier plan, and the membership's 7-day window and total usage", async () => {
    const usage = await kimi();
    expect(usage).toMatchObject({ ok: true, source: "api", plan: "Moderato", error: null });
    expect(usage.primary).toEqual(MODERATO_WEEKLY);
    expect(usage.secondary).toEqual(MODERATO_RATE);
    expect(usage.tertiary).toEqual({
      label: "Code 7-day",
      usedPercent: 62,
      used: null,
      limit: null,
      unit: null,
      unlimited: false,
      resetsAt: "2026-03-14T09:12:00.000Z",
      windowMinutes: 10080,
      note: null,
    });
    expect(usage.details).toEqual([
      { label: "Membership", value: "Moderato (99 CNY/month, 2,048 requests/week)" },
      { label: "Total usage", value: "41.25% used, until 2026-04-01 00:00 UTC" },
    ]);
  });

  it("sends GET /coding/v1/usages with the key as Bearer, and the membership call with the console's headers", async () => {
    await kimi();
    expect(requestTo(CODE_API_PATH)).toMatchObject({ origin: "https://api.kimi.com", method: "GET" });
    expect(requestTo(CODE_API_PATH)!.headers).toMatchObject({ authorization: `Bearer ${KIMI_TEST_API_KEY}`, accept: "application/json" });
    expect(requestTo(CODE_API_PATH)!.headers).not.toHaveProperty("cookie");
    const stats = requestTo(STATS_PATH)!;
    expect(stats).toMatchObject({ origin: "https://www.kimi.com", method: "POST" });
    expect(JSON.parse(stats.body)).toEqual({});
    expect(stats.headers).toMatchObject({ authorization: `Bearer ${KIMI_TEST_TOKEN}`, cookie: `kimi-auth=${KIMI_TEST_TOKEN}` });
    expect(requestTo(GET_USAGES_PATH)).toBeUndefined();
  });

  it("reads string counters, the reset under another name, and the window's own length (4 hours)", async () => {
    const usage = await kimiIn("code_api_hourly");
    expect(usage.plan).toBe("Allegretto");
    expect(usage.primary).toMatchObject({ used: 1200, limit: 7168, usedPercent: 16.74, resetsAt: "2026-03-16T00:00:00.000Z" });
    expect(usage.secondary).toEqual(
      requestMeter("4-hour", {
        usedPercent: 40,
        used: 60,
        limit: 150,
        resetsAt: "2026-03-10T14:00:00.000Z",
        windowMinutes: 240,
        note: "150 requests per 4 hours",
      }),
    );
  });

  it("reads a limit whose counters sit on the item itself, a time_unit window, string numbers and microsecond times", async () => {
    const usage = await kimiIn("code_api_flat");
    expect(usage).toMatchObject({ ok: true, plan: "Moderato" });
    expect(usage.primary).toMatchObject({ used: 337, limit: 2048, resetsAt: "2026-03-16T00:00:00.000Z", windowMinutes: 10_080 });
    expect(usage.secondary).toEqual(flatFiveHour(36, 18));
  });

  it("reads an answer whose only quotas are root-level limits (snake_case window, string counters): the window is the meter", async () => {
    const usage = await kimiIn("code_api_root_limits", KEY_ONLY);
    // a bare LEVEL_ membership names no plan
    expect(usage).toMatchObject({ ok: true, source: "api", plan: null, secondary: null, tertiary: null });
    expect(usage.primary).toEqual(flatFiveHour(42, 21));
  });

  it("reads a week-long root-level limit as the weekly quota, the other as its rate limit; a bare LEVEL_ guesses no tier", async () => {
    const usage = await kimiIn("code_api_root_weekly", KEY_ONLY);
    expect(usage).toMatchObject({ ok: true, source: "api", plan: null, details: [] });
    expect(usage.primary).toMatchObject({
      label: "Weekly",
      used: 337,
      limit: 2048,
      resetsAt: "2026-03-16T00:00:00.000Z",
      windowMinutes: 10_080,
    });
    expect(usage.secondary).toMatchObject({ label: "5-hour", used: 42, limit: 200, windowMinutes: 300 });
    // a tier the user declared still names the plan
    const declared = await withConfig({ tier: "moderato" }, () => kimiIn("code_api_root_weekly", KEY_ONLY));
    expect(declared.plan).toBe("Moderato");
  });

  it("serves the tier scenarios in the Code API's shape too", async () => {
    expect(await kimiIn("tier_andante")).toMatchObject({ source: "api", plan: "Andante", secondary: null });
    const allegretto = await kimiIn("tier_allegretto");
    expect(allegretto).toMatchObject({ source: "api", plan: "Allegretto" });
    expect(allegretto.primary).toMatchObject({ usedPercent: 100, used: 7200, limit: 7168 });
  });

  it("fails a body without usage as a parse error (source api), never a 0 % meter", async () => {
    const usage = await kimiIn("api_no_usage", {}, { source: "api" });
    expect(usage.error).toMatchObject({ code: "parse", message: "Failed to parse Kimi usage data: no usage in response" });
    expect(usage.primary).toBeNull();
  });

  it("in auto mode hands a body without usage over to the next route", async () => {
    const usage = await kimiIn("api_no_usage");
    expect(usage).toMatchObject({ ok: true, source: "web", plan: "Moderato" });
    expect(usage.primary).toEqual(MODERATO_WEEKLY);
  });

  it("reports a rejected key with the Code API's text (source api), without the key", async () => {
    const usage = await kimiIn("api_key_rejected", {}, { source: "api" });
    expect(usage.error).toMatchObject({
      code: "unauthorized",
      message: "Kimi Code API key is invalid or expired. Please refresh your API key.",
    });
    expect(usage.error?.hint).toContain("quotabar config set-key kimi --stdin");
    expect(usage.error?.hint).toContain("KIMI_CODE_API_KEY");
    expect(JSON.stringify(usage)).not.toContain(KIMI_TEST_API_KEY);
  });

  it("in auto mode falls back from a rejected key to the console cookie", async () => {
    const usage = await kimiIn("api_key_rejected");
    expect(usage).toMatchObject({ ok: true, source: "web" });
    expect(sim.sim.requests.filter((r) => r.path === CODE_API_PATH)).toHaveLength(1);
  });

  it("words 403 and 400 of the Code API", async () => {
    expect((await kimiIn("api_forbidden", {}, { source: "api" })).error).toMatchObject({
      code: "forbidden",
      message: "Kimi API error: HTTP 403 (permission or quota denied)",
    });
    expect((await kimiIn("api_bad_request", {}, { source: "api" })).error).toMatchObject({
      code: "upstream",
      message: "Kimi API error: HTTP 400 (invalid request)",
    });
  });

  it("maps a 500 to upstream and a slow answer to timeout", async () => {
    expect((await kimiIn("upstream_500")).error).toMatchObject({ code: "upstream", message: "Kimi API error: HTTP 500" });
    expect((await kimiIn("slow", {}, {}, 300)).error?.code).toBe("timeout");
  });

  it("prefers a config apiKey over KIMI_CODE_API_KEY", async () => {
    const usage = await withConfig({ apiKey: KIMI_TEST_API_KEY }, () =>
      kimi({ KIMI_CODE_API_KEY: "sk-kimi-wrong" }, undefined, { source: "api" }),
    );
    expect(usage).toMatchObject({ ok: true, source: "api" });
  });

  it("takes a kimi-auth token stored as apiKey to the web route, never to the Code API", async () => {
    const usage = await withConfig({ apiKey: KIMI_TEST_TOKEN }, () => kimi({ ...WEB_ONLY, KIMI_AUTH_TOKEN: undefined }));
    expect(usage).toMatchObject({ ok: true, source: "web" });
    expect(requestTo(CODE_API_PATH)).toBeUndefined();
  });
});

describe("kimi: KIMI_CODE_BASE_URL", () => {
  it("appends coding/v1/usages, v1/usages or usages depending on how the base ends", () => {
    const url = (base: string) => codeApiUsagesUrl(new URL(base));
    expect(url("https://api.kimi.com")).toBe("https://api.kimi.com/coding/v1/usages");
    expect(url("https://gw.example.com/kimi/")).toBe("https://gw.example.com/kimi/coding/v1/usages");
    expect(url("https://gw.example.com/kimi/coding")).toBe("https://gw.example.com/kimi/coding/v1/usages");
    expect(url("https://api.kimi.com/coding/")).toBe("https://api.kimi.com/coding/v1/usages");
    expect(url("https://api.kimi.com/coding/v1")).toBe("https://api.kimi.com/coding/v1/usages");
    expect(url("https://api.kimi.com/coding/v1//")).toBe("https://api.kimi.com/coding/v1/usages");
    expect(url("https://gw.example.com/mycoding")).toBe("https://gw.example.com/mycoding/coding/v1/usages");
  });

  it("sends the request to the override (a loopback http base is allowed)", async () => {
    for (const base of [`${sim.sim.url}/api.kimi.com`, `${sim.sim.url}/api.kimi.com/coding`, `${sim.sim.url}/api.kimi.com/coding/v1/`]) {
      sim.sim.requests.length = 0;
      expect(await kimi({ KIMI_CODE_BASE_URL: base }, undefined, { source: "api" })).toMatchObject({ ok: true, source: "api" });
      expect(requestTo(CODE_API_PATH)).toBeDefined();
    }
  });

  it("refuses plain http off loopback and a base with user info, without calling anything or falling back", async () => {
    const http = await kimi({ KIMI_CODE_BASE_URL: "http://api.kimi.com" });
    expect(http.error).toMatchObject({
      code: "not_configured",
      message: "KIMI_CODE_BASE_URL must be an https URL (plain http only on loopback)",
    });
    const userInfo = await kimi({ KIMI_CODE_BASE_URL: "https://me:secret@api.kimi.com" });
    expect(userInfo.error).toMatchObject({ code: "not_configured", message: "KIMI_CODE_BASE_URL must not carry a user name or password" });
    expect(sim.sim.requests.filter((r) => r.path !== STATS_PATH)).toHaveLength(0);
  });
});

describe("kimi: the Kimi Code CLI's credentials", () => {
  it("uses the CLI's access token on the Code API, with the CLI's identity headers", async () => {
    const usage = await kimi({ KIMI_CODE_API_KEY: undefined, KIMI_CODE_HOME: cliHome() });
    expect(usage).toMatchObject({ ok: true, source: "cli", plan: "Moderato" });
    const headers = requestTo(CODE_API_PATH)!.headers;
    expect(headers).toMatchObject({
      authorization: `Bearer ${KIMI_TEST_CLI_TOKEN}`,
      "x-msh-platform": "kimi_code_cli",
      "x-msh-device-id": "device-cli-3f2a",
    });
    expect(headers["user-agent"]).toMatch(/^quotabar\//);
    for (const name of ["x-msh-version", "x-msh-device-name", "x-msh-device-model", "x-msh-os-version"]) {
      expect(headers[name]).toMatch(/^[\x20-\x7e]+$/);
    }
  });

  it("finds ~/.kimi-code under HOME when KIMI_CODE_HOME is not set", async () => {
    const home = mkdtempSync(join(sim.home, "user-"));
    const cli = join(home, ".kimi-code", "credentials");
    mkdirSync(cli, { recursive: true });
    copyFileSync(join(FIXTURES, "cli-credentials.json"), join(cli, "kimi-code.json"));
    const usage = await kimi({ KIMI_CODE_API_KEY: undefined, HOME: home }, undefined, { source: "cli" });
    expect(usage).toMatchObject({ ok: true, source: "cli" });
    // no device_id file: the header is left out rather than invented
    expect(requestTo(CODE_API_PATH)!.headers).not.toHaveProperty("x-msh-device-id");
  });

  it("skips a token that expires within a minute, and a file that is not JSON, for the web route", async () => {
    const soon = Math.floor(Date.now() / 1000) + 30;
    const expiring = cliHome({ access_token: KIMI_TEST_CLI_TOKEN, refresh_token: "r", expires_at: soon });
    expect(await kimi({ KIMI_CODE_API_KEY: undefined, KIMI_CODE_HOME: expiring })).toMatchObject({ ok: true, source: "web" });
    const broken = cliHome();
    writeFileSync(join(broken, "credentials", "kimi-code.json"), "{ not json");
    expect(await kimi({ KIMI_CODE_API_KEY: undefined, KIMI_CODE_HOME: broken })).toMatchObject({ ok: true, source: "web" });
  });

  it("takes over from a rejected API key in auto mode", async () => {
    expect(await kimiIn("api_key_rejected", { KIMI_CODE_HOME: cliHome() })).toMatchObject({ ok: true, source: "cli" });
  });

  it("words a rejected CLI token, and a missing file in cli mode (with its path)", async () => {
    const rejected = await kimiIn("unauthorized", { KIMI_CODE_HOME: cliHome() }, { source: "cli" });
    expect(rejected.error).toMatchObject({
      code: "unauthorized",
      message: "Kimi Code CLI credentials are invalid or expired. Please sign in to the Kimi Code CLI again.",
    });
    expect(JSON.stringify(rejected)).not.toContain(KIMI_TEST_CLI_TOKEN);
    const empty = mkdtempSync(join(sim.home, "empty-"));
    const missing = await kimi({ KIMI_CODE_HOME: empty }, undefined, { source: "cli" });
    expect(missing.error).toMatchObject({
      code: "not_configured",
      message: `No usable Kimi Code CLI credentials at ${join(empty, "credentials", "kimi-code.json")} (missing, unreadable or expired).`,
    });
    expect(missing.error?.hint).toContain("Kimi Code CLI");
  });
});

describe("kimi: the membership call (GetSubscriptionStats), best effort", () => {
  it("hides a disabled 7-day window and a balance that is not the subscription's", async () => {
    const usage = await kimiIn("stats_hidden");
    expect(usage).toMatchObject({ ok: true, tertiary: null });
    expect(usage.details.map((d) => d.label)).toEqual(["Membership"]);
  });

  it("never fails the fetch: a failing membership call leaves the usage as it is", async () => {
    const usage = await kimiIn("stats_failing");
    expect(usage).toMatchObject({ ok: true, source: "api", tertiary: null });
    expect(usage.primary).toEqual(MODERATO_WEEKLY);
  });

  it("never holds the usage past its own short budget", { timeout: 15_000 }, async () => {
    const usage = await kimiIn("stats_slow", {}, {}, 10_000);
    expect(usage).toMatchObject({ ok: true, source: "api", tertiary: null, error: null });
  });

  it("is not made without a kimi-auth token", async () => {
    const usage = await kimi(KEY_ONLY);
    expect(usage).toMatchObject({ ok: true, source: "api", tertiary: null });
    expect(requestTo(STATS_PATH)).toBeUndefined();
  });

  it("shows the 7-day window unless it repeats the weekly meter (within 1 point and 5 minutes)", () => {
    const weekly = meter("Weekly", { usedPercent: 62.5, resetsAt: "2026-03-14T09:10:00.000Z" });
    const stats = (ratio: number, resetsAt: string | null, enabled: boolean | null = true): KimiMembership => ({
      balance: null,
      codeWeek: { ratio, enabled, resetsAt },
    });
    expect(codeWeekMeter(stats(0.62, "2026-03-14T09:12:00Z"), weekly)).toBeNull();
    expect(codeWeekMeter(stats(0.6, "2026-03-14T09:12:00Z"), weekly)?.usedPercent).toBe(60);
    expect(codeWeekMeter(stats(0.62, "2026-03-14T09:20:00Z"), weekly)?.usedPercent).toBe(62);
    expect(codeWeekMeter(stats(0.62, null), weekly)?.usedPercent).toBe(62);
    expect(codeWeekMeter(stats(0.3, null, false), weekly)).toBeNull();
    expect(codeWeekMeter(stats(1.7, null, null), weekly)?.usedPercent).toBe(100);
    expect(codeWeekMeter({ balance: null, codeWeek: { ratio: null, enabled: true, resetsAt: null } }, weekly)).toBeNull();
    expect(codeWeekMeter(null, weekly)).toBeNull();
  });

  it("shows the total usage of the subscription balance only", () => {
    const balance = (feature: string | null, type: string | null): KimiMembership => ({
      balance: { feature, type, usedRatio: 0.5, endsAt: null },
      codeWeek: null,
    });
    expect(totalUsageDetail(balance(null, null))).toEqual({ label: "Total usage", value: "50% used" });
    expect(totalUsageDetail(balance("FEATURE_OMNI", "SUBSCRIPTION"))).not.toBeNull();
    expect(totalUsageDetail(balance("FEATURE_CODING", null))).toBeNull();
    expect(totalUsageDetail(balance(null, "TOP_UP"))).toBeNull();
  });
});

describe("kimi: the console's GetUsages (web route)", () => {
  it("maps the weekly quota to primary and the 5-hour rate limit to secondary (Moderato)", async () => {
    const usage = await kimi(WEB_ONLY);
    expect(usage).toMatchObject({ ok: true, source: "web", plan: "Moderato", error: null });
    expect(usage.primary).toEqual(MODERATO_WEEKLY);
    expect(usage.secondary).toEqual(MODERATO_RATE);
    expect(usage.tertiary).toMatchObject({ label: "Code 7-day", usedPercent: 62 });
  });

  it("sends the browser's request: POST, scope body, Bearer plus kimi-auth cookie, JWT claim headers", async () => {
    await kimi(WEB_ONLY);
    const request = requestTo(GET_USAGES_PATH)!;
    expect(request).toMatchObject({ origin: "https://www.kimi.com", method: "POST" });
    expect(JSON.parse(request.body)).toEqual({ scope: ["FEATURE_CODING"] });
    expect(request.headers).toMatchObject({
      authorization: `Bearer ${KIMI_TEST_TOKEN}`,
      cookie: `kimi-auth=${KIMI_TEST_TOKEN}`,
      origin: "https://www.kimi.com",
      referer: "https://www.kimi.com/code/console",
      "connect-protocol-version": "1",
      "x-msh-platform": "web",
      "x-language": "en-US",
      "x-msh-device-id": KIMI_TEST_CLAIMS.device_id,
      "x-msh-session-id": KIMI_TEST_CLAIMS.ssid,
      "x-traffic-id": KIMI_TEST_CLAIMS.sub,
    });
    expect(request.headers["user-agent"]).toContain("Chrome/143");
    expect(request.headers["r-timezone"]).toMatch(/\w/);
  });

  it("is the only route under source web, even with an API key", async () => {
    expect(await kimi({}, undefined, { source: "web" })).toMatchObject({ ok: true, source: "web" });
    expect(requestTo(CODE_API_PATH)).toBeUndefined();
  });

  it("labels the Andante tier and shows no secondary when the rate limits are null", async () => {
    const usage = await kimiIn("tier_andante", WEB_ONLY);
    expect(usage).toMatchObject({ source: "web", plan: "Andante", secondary: null });
    expect(usage.primary).toMatchObject({ usedPercent: 0, used: 0, limit: 1024, note: null });
  });

  it("labels the Allegretto tier and clamps an exhausted quota at 100 %", async () => {
    const usage = await kimiIn("tier_allegretto", WEB_ONLY);
    expect(usage.plan).toBe("Allegretto");
    expect(usage.primary).toMatchObject({ usedPercent: 100, used: 7200, limit: 7168, note: null });
    expect(usage.secondary).toMatchObject({
      usedPercent: 100,
      used: 200,
      limit: 200,
      windowMinutes: 300,
      resetsAt: "2026-03-10T18:05:24.374Z",
      note: "200 requests per 5 hours",
    });
  });

  it("without a limit in the response, takes the weekly quota from the configured tier's row of the table", async () => {
    sim.sim.setScenario("kimi", "no_limit");
    const usage = await withConfig({ tier: "moderato" }, () => kimi(WEB_ONLY));
    expect(usage.plan).toBe("Moderato");
    expect(usage.primary).toMatchObject({ usedPercent: 14.65, used: 300, limit: 2048, resetsAt: "2026-11-23T00:00:00.000Z" });
    // The 5-hour window (5 TIME_UNIT_HOUR) has no limit either: 200 requests per window for every tier.
    expect(usage.secondary).toMatchObject({
      usedPercent: 6,
      used: 12,
      limit: 200,
      windowMinutes: 300,
      resetsAt: "2026-11-20T14:00:00.000Z",
    });
  });

  it("without a limit and without a tier, shows the count but no percentage", async () => {
    const usage = await kimiIn("no_limit", WEB_ONLY);
    expect(usage.plan).toBeNull();
    expect(usage.primary).toMatchObject({ usedPercent: null, used: 300, limit: null, note: "300 requests" });
  });

  it("fails with a parse error when the coding scope is absent", async () => {
    const usage = await kimiIn("other_scope", WEB_ONLY);
    expect(usage.error).toMatchObject({
      code: "parse",
      message: "Failed to parse Kimi usage data: FEATURE_CODING scope not found in response",
    });
  });

  it("names the bad field of a malformed body (both routes)", async () => {
    expect((await kimiIn("malformed", WEB_ONLY)).error?.message).toContain("usages[0].detail.used");
    expect((await kimiIn("malformed", {}, { source: "api" })).error?.message).toContain("usage.used");
  });

  it("reports a rejected token as unauthorized, with the v0.18 text and without the token", async () => {
    const usage = await kimiIn("unauthorized", WEB_ONLY);
    expect(usage.error).toMatchObject({
      code: "unauthorized",
      message: "Kimi auth token is invalid or expired. Please refresh your token.",
    });
    expect(usage.error?.hint).toContain("KIMI_AUTH_TOKEN");
    expect(usage.error?.hint).toContain("providers[kimi].cookieHeader");
    expect(JSON.stringify(usage)).not.toContain(KIMI_TEST_TOKEN);
  });

  it("reports HTTP 403 as forbidden with the same advice", async () => {
    expect((await kimiIn("forbidden", WEB_ONLY)).error).toMatchObject({
      code: "forbidden",
      message: "Kimi auth token is invalid or expired. Please refresh your token.",
    });
  });
});

describe("kimi credential chain", () => {
  it("is not configured without any credential, and names all three routes", async () => {
    const usage = await kimi({ ...WEB_ONLY, KIMI_AUTH_TOKEN: undefined });
    expect(usage.error).toMatchObject({
      code: "not_configured",
      message: "Kimi credentials are missing: no Kimi Code API key, no Kimi Code CLI sign-in and no kimi-auth token found.",
    });
    expect(usage.error?.hint).toContain("quotabar config set-key kimi --stdin");
    expect(usage.error?.hint).toContain("KIMI_CODE_API_KEY");
    expect(usage.error?.hint).toContain("the Kimi Code CLI");
    expect(usage.error?.hint).toContain("providers[kimi].cookieHeader");
    expect(sim.sim.requests).toHaveLength(0);
  });

  it("keeps each route's own text under its source mode", async () => {
    const none = { ...WEB_ONLY, KIMI_AUTH_TOKEN: undefined };
    expect((await kimi(none, undefined, { source: "web" })).error?.message).toBe("No kimi-auth token found.");
    expect((await kimi(none, undefined, { source: "api" })).error?.message).toBe("No Kimi Code API key found.");
  });

  it("uses the manual token in the config before the environment", async () => {
    const usage = await withConfig({ apiKey: KIMI_TEST_TOKEN }, () => kimi({ ...WEB_ONLY, KIMI_AUTH_TOKEN: "eyJ.wrong.token" }));
    expect(usage).toMatchObject({ ok: true, source: "web" });
  });

  it("takes kimi-auth out of a pasted cURL command in the config cookie header", async () => {
    const curl = `curl 'https://www.kimi.com/apiv2/x' -H 'accept: */*' -H $'cookie: _ga=GA1.1; kimi-auth=${KIMI_TEST_TOKEN}; theme=dark' --compressed`;
    const usage = await withConfig({ cookieHeader: curl }, () => kimi({ ...WEB_ONLY, KIMI_AUTH_TOKEN: undefined }));
    expect(usage.ok).toBe(true);
    expect(requestTo(GET_USAGES_PATH)!.headers.cookie).toBe(`kimi-auth=${KIMI_TEST_TOKEN}`);
  });

  it("ignores the cookie header when the cookie source is off", async () => {
    const usage = await withConfig({ cookieSource: "off", cookieHeader: `kimi-auth=${KIMI_TEST_TOKEN}` }, () =>
      kimi({ ...WEB_ONLY, KIMI_AUTH_TOKEN: undefined }),
    );
    expect(usage.error?.code).toBe("not_configured");
  });

  it("reads KIMI_MANUAL_COOKIE and a quoted KIMI_AUTH_TOKEN", async () => {
    expect((await kimi({ ...WEB_ONLY, KIMI_AUTH_TOKEN: undefined, KIMI_MANUAL_COOKIE: `Cookie: kimi-auth=${KIMI_TEST_TOKEN}` })).ok).toBe(
      true,
    );
    expect((await kimi({ ...WEB_ONLY, KIMI_AUTH_TOKEN: `"${KIMI_TEST_TOKEN}"` })).ok).toBe(true);
  });
});

describe("kimi bodies (bounded and relaxed)", () => {
  const body = (value: object) => JSON.stringify(value);

  it("refuses a usage block without any counter, and a body without usage", () => {
    expect(() => codeApiUsage(body({ usage: { resetTime: "2026-03-16T00:00:00Z" }, limits: [] }))).toThrow(
      "Failed to parse Kimi usage data: no usage counters in usage",
    );
    expect(() => codeApiUsage(body({}))).toThrow("Failed to parse Kimi usage data: no usage in response");
    expect(() => webUsage(body({ usages: [{ scope: "FEATURE_CODING", detail: {} }] }))).toThrow(
      "Failed to parse Kimi usage data: no usage counters in usages[0].detail",
    );
    expect(() => codeApiUsage("")).toThrow("empty body");
  });

  it("leaves out a rate window without counters instead of showing 0 %", () => {
    const usage = codeApiUsage(
      body({ usage: { limit: 2048, used: 5 }, limits: [{ window: { duration: 5, timeUnit: "TIME_UNIT_HOUR" }, detail: {} }] }),
    );
    expect(kimiSnapshot({ ...usage, declaredTier: null, membership: null }).secondary).toBeNull();
  });

  it("reads a limit item's own counters when it has no detail, with the window's unit as time_unit or timeUnit", () => {
    const flat = { limit: "100", remaining: "80", resetTime: "2026-07-31T02:22:24.930601Z" };
    for (const window of [
      { duration: 300, time_unit: "TIME_UNIT_MINUTE" },
      { duration: 300, timeUnit: "TIME_UNIT_MINUTE" },
    ]) {
      const usage = codeApiUsage(body({ usage: { limit: 2048, used: 5 }, limits: [{ window, ...flat }] }));
      expect(usage.rateLimit).toEqual({
        limit: 100,
        used: null,
        remaining: 80,
        resetsAt: "2026-07-31T02:22:24.930Z",
        window: { duration: 300, unit: "TIME_UNIT_MINUTE" },
      });
    }
    // a detail, when sent, is the one read
    const both = codeApiUsage(body({ usage: { limit: 2048, used: 5 }, limits: [{ ...flat, detail: { limit: 200, used: 7 } }] }));
    expect(both.rateLimit).toMatchObject({ limit: 200, used: 7, remaining: null });
    expect(() => codeApiUsage(body({ usage: { limit: 2048, used: 5 }, limits: [{ limit: "100", remaining: "-3" }] }))).toThrow(
      /limits\W+0\W+remaining.*negative/,
    );
  });

  it("without usage: root-level limits with counters are read (two windows: two meters), else no usage in response", () => {
    const window = (duration: number) => ({ duration, time_unit: "TIME_UNIT_MINUTE" });
    const two = codeApiUsage(
      body({
        user: { membership: { level: "LEVEL_INTERMEDIATE" } },
        limits: [
          { window: window(300), limit: "200", remaining: "150" },
          { window: window(1440), detail: { limit: 1000, used: 10 } },
        ],
      }),
    );
    expect(two).toMatchObject({ weekly: null, rateLimit: { limit: 200, remaining: 150 }, nextRateLimit: { limit: 1000, used: 10 } });
    const snapshot = kimiSnapshot({ ...two, declaredTier: null, membership: null });
    expect(snapshot.primary).toMatchObject({ label: "5-hour", usedPercent: 25 });
    expect(snapshot.secondary).toMatchObject({ label: "24-hour", usedPercent: 1, windowMinutes: 1440 });
    // a week given in weeks or days is the weekly quota too
    for (const week of [
      { duration: 1, time_unit: "TIME_UNIT_WEEK" },
      { duration: 7, timeUnit: "TIME_UNIT_DAY" },
    ]) {
      const weekly = codeApiUsage(
        body({
          limits: [
            { window: window(300), limit: "200", remaining: "150" },
            { window: week, limit: "1024", remaining: "1000" },
          ],
        }),
      );
      expect(weekly).toMatchObject({ weekly: { limit: 1024, remaining: 1000 }, rateLimit: { limit: 200 } });
    }
    expect(() => codeApiUsage(body({ limits: [{ window: window(300) }] }))).toThrow("no usage in response");
    expect(() => codeApiUsage(body({ limits: [{ window: window(300), limit: "200", remaining: "-1" }] }))).toThrow(
      /limits\W+0\W+remaining.*negative/,
    );
  });

  it("a membership that names a level keeps the tier the limit says; a bare LEVEL_ does not guess one", () => {
    const weekly = { limit: 2048, used: 10, remaining: null, resetsAt: null };
    const plan = (membershipLevel: string | null) =>
      kimiSnapshot({ weekly, rateLimit: null, declaredTier: null, membership: null, membershipLevel }).plan;
    expect(plan("LEVEL_INTERMEDIATE")).toBe("Moderato");
    expect(plan(null)).toBe("Moderato");
    expect(plan("LEVEL_")).toBeNull();
  });

  it("reads only the first limit, and takes epoch seconds and numeric strings as resets", () => {
    const usage = codeApiUsage(
      body({
        usage: { limit: "10", used: 1, resetAt: 1773619200 },
        limits: [{ detail: { limit: 5, used: "1" } }, { detail: "not a limit" }],
      }),
    );
    expect(usage.weekly).toEqual({ limit: 10, used: 1, remaining: null, resetsAt: "2026-03-16T00:00:00.000Z" });
    expect(usage.rateLimit).toMatchObject({ limit: 5, used: 1, window: null });
  });

  it("refuses a body nested deeper than the kit allows", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = { usage: deep };
    expect(() => codeApiUsage(body(deep as object))).toThrow(/nests deeper/);
  });

  it("converts window units (minute, hour, day, with or without the prefix) and words them", () => {
    expect(windowMinutes({ duration: 300, unit: "TIME_UNIT_MINUTE" })).toBe(300);
    expect(windowMinutes({ duration: 5, unit: "TIME_UNIT_HOUR" })).toBe(300);
    expect(windowMinutes({ duration: 1, unit: "TIME_UNIT_DAY" })).toBe(1440);
    expect(windowMinutes({ duration: 2, unit: "hours" })).toBe(120);
    expect(windowMinutes({ duration: 5, unit: "TIME_UNIT_UNSPECIFIED" })).toBeNull();
    expect(windowMinutes({ duration: 0, unit: "TIME_UNIT_HOUR" })).toBeNull();
    expect(windowWords(300)).toEqual({ label: "5-hour", text: "5 hours" });
    expect(windowWords(60)).toEqual({ label: "1-hour", text: "1 hour" });
    expect(windowWords(1440)).toEqual({ label: "24-hour", text: "24 hours" });
    expect(windowWords(90)).toEqual({ label: "90-minute", text: "90 minutes" });
  });

  it("words a window of another length without the spec's 200-request default", () => {
    const reading: KimiReading = {
      weekly: { limit: 2048, used: 1, remaining: null, resetsAt: null },
      rateLimit: { limit: null, used: 7, remaining: null, resetsAt: null, window: { duration: 30, unit: "TIME_UNIT_MINUTE" } },
      declaredTier: null,
      membership: null,
    };
    expect(kimiSnapshot(reading).secondary).toMatchObject({
      label: "30-minute",
      usedPercent: null,
      limit: null,
      windowMinutes: 30,
      note: "7 requests in this 30 minutes window",
    });
  });
});

describe("kimi token and cookie parsing", () => {
  const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln";

  it("finds kimi-auth in cookie, header and cURL forms, and accepts a bare JWT", () => {
    expect(kimiAuthTokenFromText(`a=1; kimi-auth=${jwt}; b=2`)).toBe(jwt);
    expect(kimiAuthTokenFromText(`kimi-auth: ${jwt}`)).toBe(jwt);
    expect(kimiAuthTokenFromText(`curl -b 'kimi-auth=${jwt}' https://www.kimi.com`)).toBe(jwt);
    expect(kimiAuthTokenFromText(jwt)).toBe(jwt);
    expect(kimiAuthTokenFromText("session=abc; theme=dark")).toBeNull();
    expect(kimiAuthTokenFromText("eyJnot-a-jwt")).toBeNull();
    expect(kimiAuthTokenFromText(KIMI_TEST_API_KEY)).toBeNull();
  });

  it("omits the claim headers when the token is not a decodable JWT", () => {
    expect(kimiJwtClaims("opaque-token")).toEqual({ deviceId: null, sessionId: null, subject: null });
    const headers = kimiHeaders("opaque-token");
    expect(headers).not.toHaveProperty("x-msh-device-id");
    expect(headers).not.toHaveProperty("x-traffic-id");
    expect(kimiJwtClaims(KIMI_TEST_TOKEN)).toEqual({ deviceId: "device-sim-7", sessionId: "session-sim-9", subject: "user-sim-42" });
  });

  it("normalises pasted cookie text per credentials.md 6.1", () => {
    expect(normalizeCookieHeader(`curl https://x -H 'Cookie: a=1; b=2' -H 'accept: */*'`)).toBe("a=1; b=2");
    expect(normalizeCookieHeader(`curl https://x -H "Cookie: a=1; b=2"`)).toBe("a=1; b=2");
    expect(normalizeCookieHeader(`curl https://x -H $'cookie: a=1; b=2' --compressed`)).toBe("a=1; b=2");
    expect(normalizeCookieHeader("GET / HTTP/1.1\r\nHost: x\r\ncookie: a=1; b=2\r\nAccept: */*")).toBe("a=1; b=2");
    expect(normalizeCookieHeader(`curl https://x --cookie "a=1; b=2"`)).toBe("a=1; b=2");
    expect(normalizeCookieHeader("curl https://x -b a=1")).toBe("a=1");
    expect(normalizeCookieHeader(`'a=1; b=2'`)).toBe("a=1; b=2");
    expect(normalizeCookieHeader("   ")).toBeNull();
    expect(cookiePairs("a=1; =x; noequals; b = x=y ; c=")).toEqual([
      { name: "a", value: "1" },
      { name: "b", value: "x=y" },
      { name: "c", value: "" },
    ]);
  });

  it("keeps the tier table of spec 2.3", () => {
    expect(KIMI_TIERS.map((t) => [t.name, t.priceCny, t.weeklyRequests])).toEqual([
      ["Andante", 49, 1024],
      ["Moderato", 99, 2048],
      ["Allegretto", 199, 7168],
    ]);
  });

  it("prefers the response limit over a declared tier, and derives the limit from used + remaining last", () => {
    const allegretto = KIMI_TIERS[2]!;
    const weekly = { limit: 1024, used: 10, remaining: 1014, resetsAt: null };
    expect(kimiSnapshot({ weekly, rateLimit: null, declaredTier: allegretto, membership: null }).plan).toBe("Andante");
    const derived = kimiSnapshot({ weekly: { ...weekly, limit: null }, rateLimit: null, declaredTier: null, membership: null });
    expect(derived.primary).toMatchObject({ limit: 1024, usedPercent: 0.98 });
    expect(derived.plan).toBe("Andante");
  });
});

describe("kimi from the browsers (after the manual token and KIMI_AUTH_TOKEN)", () => {
  const NOTHING_PUT_IN_PLACE: Env = { KIMI_CODE_API_KEY: undefined, KIMI_AUTH_TOKEN: undefined };
  const signedIn = (browser: string, token = KIMI_TEST_TOKEN) => ({
    browser,
    profile: "Default",
    cookies: [storedCookie("kimi-auth", token, ".kimi.com"), storedCookie("_ga", "GA1.1.5", ".kimi.com")],
  });
  async function fromBrowsers(access: BrowserDouble, extra: Env = {}) {
    const doc = await usageWithBrowsers(sim.env({ ...NOTHING_PUT_IN_PLACE, ...extra }), access).usage({ providers: ["kimi"] });
    return doc.providers[0]!;
  }

  it("imports the kimi-auth cookie in the spec's order (Arc, Chrome, Safari, Edge, Brave, Chromium) and caches it", async () => {
    const access = browserDouble([signedIn("brave", "eyJ.brave.token"), signedIn("chrome")]);
    expect(await fromBrowsers(access)).toMatchObject({ ok: true, source: "web" });
    expect(access.cookieQueries).toEqual([
      { hosts: ["www.kimi.com", "kimi.com"], browsers: ["arc", "chrome", "safari", "edge", "brave", "chromium"], names: ["kimi-auth"] },
    ]);
    expect(requestTo(GET_USAGES_PATH)!.headers).toMatchObject({
      authorization: `Bearer ${KIMI_TEST_TOKEN}`,
      cookie: `kimi-auth=${KIMI_TEST_TOKEN}`,
    });
    expect(JSON.parse((await access.secrets.get("quotabar", "cookie:kimi"))!)).toMatchObject({ header: `kimi-auth=${KIMI_TEST_TOKEN}` });
    await fromBrowsers(access);
    expect(access.cookieQueries).toHaveLength(1);
  });

  it("reads no browser when a manual token or KIMI_AUTH_TOKEN is there, nor for the membership beside an API key", async () => {
    const access = browserDouble([signedIn("chrome", "eyJ.browser.token")]);
    expect((await withConfig({ apiKey: KIMI_TEST_TOKEN }, () => fromBrowsers(access))).ok).toBe(true);
    expect((await fromBrowsers(access, { KIMI_AUTH_TOKEN: KIMI_TEST_TOKEN })).ok).toBe(true);
    expect((await fromBrowsers(access, { KIMI_CODE_API_KEY: KIMI_TEST_API_KEY })).ok).toBe(true);
    expect(access.cookieQueries).toEqual([]);
  });

  it("drops a refused cached token and imports afresh in the same run", async () => {
    const access = browserDouble([signedIn("arc")]);
    await access.secrets.set(
      "quotabar",
      "cookie:kimi",
      JSON.stringify({ header: "kimi-auth=eyJ.stale.token", storedAt: "x", source: "arc/Default" }),
    );
    expect((await fromBrowsers(access)).ok).toBe(true);
    expect(sim.sim.requests.filter((r) => r.path === GET_USAGES_PATH).map((r) => r.headers.authorization)).toEqual([
      "Bearer eyJ.stale.token",
      `Bearer ${KIMI_TEST_TOKEN}`,
    ]);
  });

  it("names what the browsers showed when none holds kimi-auth, and the three routes", async () => {
    const usage = await fromBrowsers(browserDouble([]));
    expect(usage.error).toMatchObject({
      code: "not_configured",
      message: "Kimi credentials are missing: no Kimi Code API key, no Kimi Code CLI sign-in and no kimi-auth token found.",
    });
    expect(usage.error?.hint).toContain("Browsers looked at: not installed here: arc, chrome, safari, edge, brave, chromium.");
    expect(usage.error?.hint).toContain("Sign in at https://www.kimi.com/code/console in your browser.");
    expect(usage.error?.hint).toContain("quotabar config set-key kimi --stdin");
  });
});
