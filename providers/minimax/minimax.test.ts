import { describe, expect, it } from "vitest";
import type { QuotabarError } from "../../domain/errors.js";
import { scopedHttp } from "../../domain/scoped-http.js";
import type { FetchContext } from "../../ports/fetch-context.js";
import type { HttpTransport } from "../../ports/http-client.js";
import { fixturesOf } from "../../simulator/fixtures.js";
import { useSimulator } from "../../test/helpers/harness.js";
import { browserDouble, storedCookie, usageWithBrowsers, type BrowserDouble } from "../../test/helpers/browser-double.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { minimaxApi } from "./index.js";
import { nextClockTime, readCodingPlanPage } from "./page.js";
import { EMPTY_WINDOW, MAX_REMAINS_SECONDS, minimaxSnapshot, type MiniMaxLane, type MiniMaxReading, type MiniMaxWindow } from "./policy.js";
import { minimaxRemainsReading } from "./remains.js";
import { minimaxSessionFromPaste } from "./session.js";
import { groupIdOfJwt, isMiniMaxJwt, minimaxTokens } from "./local-storage-token.js";
import { MINIMAX_TEST_COOKIE, MINIMAX_TEST_KEY, MINIMAX_WEB_TEST_TOKEN } from "./simulator.js";
import { minimaxApiRemainsUrls, minimaxCodingPlanUrl, minimaxRegion, minimaxWebRemainsUrl } from "./urls.js";

const fixture = fixturesOf(import.meta.url);
const sim = useSimulator();
const TOKEN_PLAN_PATH = "/v1/token_plan/remains";
const REAL_PATH = "/v1/api/openplatform/coding_plan/remains";
const SPEC_PATH = "/v1/coding_plan/remains";
const INVALID = "MiniMax credentials are invalid or expired.";

async function minimax(extra: Record<string, string | undefined> = {}, options: { source?: string; timeoutMs?: number } = {}) {
  const doc = await sim
    .quotabar(extra, options.timeoutMs)
    .usage({ providers: ["minimax"], ...(options.source ? { source: options.source } : {}) });
  return doc.providers[0]!;
}

async function withConfig<T>(entry: object, run: () => Promise<T>): Promise<T> {
  const cleanup = writeConfig(sim.home, { providers: [{ id: "minimax", ...entry }] });
  return run().finally(cleanup);
}

/** Seconds from now until an ISO time. */
const secondsUntil = (iso: string | null | undefined) => (Date.parse(iso ?? "") - Date.now()) / 1000;
const requested = () => sim.sim.requests.map((r) => `${r.origin}${r.path}`);
const webOnly = { MINIMAX_API_KEY: undefined, MINIMAX_CODING_API_KEY: undefined };
const BEARER_NEEDED = "MiniMax refused the cookie-only session (status 1004): the remains API needs a Bearer API token.";
const curlPaste = `curl 'https://platform.minimax.io/v1/api/openplatform/coding_plan/remains?group_id=1900000000000' -H 'accept: application/json' -H 'authorization: Bearer ${MINIMAX_WEB_TEST_TOKEN}' -H 'cookie: ${MINIMAX_TEST_COOKIE}; _ga=GA1.1.1' --compressed`;

describe("minimax with an API token", () => {
  it("reads today's answer: the text lane's interval, its weekly twin, the other lanes as details", async () => {
    const usage = await minimax();
    expect(usage).toMatchObject({ ok: true, source: "api", plan: "Plus", tertiary: null });
    // current_interval_remaining_percent 96 wins over the zero counts
    expect(usage.primary).toMatchObject({ label: "Prompts", usedPercent: 4, used: null, limit: null, windowMinutes: 300, note: "5 hours" });
    expect(usage.secondary).toMatchObject({
      label: "Weekly",
      usedPercent: 1,
      used: null,
      limit: null,
      windowMinutes: 10080,
      note: "7 days",
    });
    // end times are past, so remains_time / weekly_remains_time decide (milliseconds)
    expect(secondsUntil(usage.primary?.resetsAt)).toBeGreaterThan(16_650);
    expect(secondsUntil(usage.primary?.resetsAt)).toBeLessThanOrEqual(16_660);
    expect(secondsUntil(usage.secondary?.resetsAt)).toBeGreaterThan(308_250);
    expect(secondsUntil(usage.secondary?.resetsAt)).toBeLessThanOrEqual(308_260);
    // the speech lane counts what is left (3400 of 4000); the image lane reports no usage and is left out
    expect(usage.details).toEqual([{ label: "speech-02-hd", value: "15% used · weekly 5% used" }]);
  });

  it("calls today's token-plan path on the Global API host with the Bearer token", async () => {
    await minimax();
    expect(requested()).toEqual([`https://api.minimax.io${TOKEN_PLAN_PATH}`]);
    expect(sim.sim.requests[0]!.headers).toMatchObject({
      authorization: `Bearer ${MINIMAX_TEST_KEY}`,
      accept: "application/json",
      "content-type": "application/json",
      "mm-api-source": "quotabar",
    });
  });

  it("falls back to the coding-plan path on 404, counting current_interval_usage_count as what is left", async () => {
    sim.sim.setScenario("minimax", "coding_plan_path");
    const usage = await minimax();
    expect(usage).toMatchObject({ ok: true, source: "api", plan: "Max", secondary: null, tertiary: null, details: [] });
    expect(usage.primary).toMatchObject({
      label: "Prompts",
      usedPercent: 75,
      used: 750,
      limit: 1000,
      unit: "prompts",
      windowMinutes: 300,
      note: "1000 prompts / 5 hours",
    });
    // end_time is past, so remains_time decides: 240000 ms (read as seconds it would outlast the 5-hour window).
    expect(secondsUntil(usage.primary?.resetsAt)).toBeGreaterThan(230);
    expect(secondsUntil(usage.primary?.resetsAt)).toBeLessThanOrEqual(240);
    expect(requested()).toEqual([`https://api.minimax.io${TOKEN_PLAN_PATH}`, `https://api.minimax.io${REAL_PATH}`]);
  });

  it("falls back to the spec's path when the others answer 404", async () => {
    sim.sim.setScenario("minimax", "legacy_path");
    const usage = await minimax();
    expect(usage).toMatchObject({ ok: true, source: "api", plan: "Max" });
    expect(requested()).toEqual([
      `https://api.minimax.io${TOKEN_PLAN_PATH}`,
      `https://api.minimax.io${REAL_PATH}`,
      `https://api.minimax.io${SPEC_PATH}`,
    ]);
  });

  it("reads the data-wrapped form with string counters and a millisecond remains_time", async () => {
    sim.sim.setScenario("minimax", "wrapped");
    const usage = await minimax();
    expect(usage.primary).toMatchObject({ usedPercent: 0.07, used: 11, limit: 15000, windowMinutes: 300 });
    expect(secondsUntil(usage.primary?.resetsAt)).toBeGreaterThan(8930);
    expect(secondsUntil(usage.primary?.resetsAt)).toBeLessThanOrEqual(8942);
  });

  it("reads current_interval_remaining_count (what is left) in a data-wrapped answer, and a remains_time in seconds", async () => {
    sim.sim.setScenario("minimax", "remaining_count");
    const usage = await minimax();
    expect(usage).toMatchObject({ ok: true, plan: "Plus" });
    // 120 of 300 left: 180 used
    expect(usage.primary).toMatchObject({ usedPercent: 60, used: 180, limit: 300, windowMinutes: 300, note: "300 prompts / 5 hours" });
    // the window's end is past, so remains_time decides: 9000 fits a 5-hour window as seconds (2.5 hours), not as 9 s
    expect(secondsUntil(usage.primary?.resetsAt)).toBeGreaterThan(8990);
    expect(secondsUntil(usage.primary?.resetsAt)).toBeLessThanOrEqual(9000);
  });

  it("uses the remaining percent when the counts are zero, and no secondary without weekly twins", async () => {
    sim.sim.setScenario("minimax", "percent_only");
    const usage = await minimax();
    expect(usage.plan).toBe("Plus");
    expect(usage.primary).toMatchObject({ usedPercent: 4, used: null, limit: null, windowMinutes: 300, note: "5 hours" });
    // a weekly percent alone (no weekly times) still fills the secondary: a week long, as its name says, with no reset
    expect(usage.secondary).toMatchObject({ label: "Weekly", usedPercent: 1, windowMinutes: 10_080, resetsAt: null, note: "7 days" });
  });

  it("reports status 1004 for a token as invalid credentials, after trying the China host once", async () => {
    sim.sim.setScenario("minimax", "status_1004");
    const usage = await minimax();
    expect(usage.error).toMatchObject({ code: "unauthorized", message: INVALID });
    expect(requested()).toEqual([`https://api.minimax.io${TOKEN_PLAN_PATH}`, `https://api.minimaxi.com${TOKEN_PLAN_PATH}`]);
  });

  it("reports HTTP 401 as unauthorized, naming the variable and set-key, without the token", async () => {
    sim.sim.setScenario("minimax", "unauthorized");
    const usage = await minimax();
    expect(usage.error).toMatchObject({ code: "unauthorized", message: INVALID });
    expect(usage.error?.hint).toContain("MINIMAX_CODING_API_KEY");
    expect(usage.error?.hint).toContain("MINIMAX_API_KEY");
    expect(usage.error?.hint).toContain("quotabar config set-key minimax --stdin");
    expect(JSON.stringify(usage)).not.toContain(MINIMAX_TEST_KEY);
  });

  it("treats an 'invalid api key' message as invalid credentials", async () => {
    sim.sim.setScenario("minimax", "invalid_key_message");
    expect((await minimax()).error).toMatchObject({ code: "unauthorized", message: INVALID });
  });

  it("reports another base_resp status as an upstream error carrying status_msg, without a China retry", async () => {
    sim.sim.setScenario("minimax", "api_error");
    const usage = await minimax();
    expect(usage.error).toMatchObject({ code: "upstream", message: "MiniMax API error: internal service error, please retry" });
    expect(sim.sim.requests).toHaveLength(1);
  });

  it("fails with a parse error for an empty model_remains or items without usage, and names the bad field of a malformed body", async () => {
    const parseMessages: Record<string, string> = {
      empty: "Failed to parse MiniMax coding plan: Missing coding plan data (model_remains is empty).",
      no_usage: "Failed to parse MiniMax coding plan: Missing coding plan data (no model_remains item carries a count or a percent).",
      malformed: "Failed to parse MiniMax response: model_remains[0].current_interval_total_count: ",
    };
    for (const [scenario, message] of Object.entries(parseMessages)) {
      sim.sim.setScenario("minimax", scenario);
      const { error } = await minimax();
      expect([error?.code, error?.message.slice(0, message.length)]).toEqual(["parse", message]);
    }
  });

  it("maps a 500 to upstream and a slow answer to timeout", async () => {
    sim.sim.setScenario("minimax", "upstream_500");
    expect((await minimax()).error).toMatchObject({ code: "upstream", message: "MiniMax API error: HTTP 500" });
    sim.sim.setScenario("minimax", "slow");
    expect((await minimax({}, { timeoutMs: 300 })).error?.code).toBe("timeout");
  });

  it("uses the China API host for region cn and for a China MINIMAX_HOST", async () => {
    await withConfig({ region: "cn" }, () => minimax());
    expect(requested()).toEqual([`https://api.minimaxi.com${TOKEN_PLAN_PATH}`]);
    sim.sim.requests.length = 0;
    expect((await minimax({ MINIMAX_HOST: "platform.minimaxi.com" })).ok).toBe(true);
    expect(requested()).toEqual([`https://api.minimaxi.com${TOKEN_PLAN_PATH}`]);
  });

  it("honours a full MINIMAX_REMAINS_URL (loopback http allowed) and tries nothing else", async () => {
    sim.sim.setScenario("minimax", "api_not_found");
    const url = `${sim.sim.url}/api.minimaxi.com${REAL_PATH}`;
    const usage = await minimax({ MINIMAX_REMAINS_URL: url });
    expect(usage.error).toMatchObject({ code: "upstream", message: "MiniMax API error: HTTP 404" });
    expect(requested()).toEqual([`https://api.minimaxi.com${REAL_PATH}`]);
    sim.sim.setScenario("minimax", "ok");
    expect((await minimax({ MINIMAX_REMAINS_URL: url })).ok).toBe(true);
    expect((await minimax({ MINIMAX_REMAINS_URL: "http://gw.example.com/remains" })).error).toMatchObject({
      code: "not_configured",
      message: "MINIMAX_REMAINS_URL must be an https URL (plain http only on loopback)",
    });
  });

  it("prefers the config apiKey, then MINIMAX_CODING_API_KEY, then MINIMAX_API_KEY", async () => {
    const wrong = "sk-cp-wrong-000000000000";
    const fromConfig = await withConfig({ apiKey: MINIMAX_TEST_KEY }, () =>
      minimax({ MINIMAX_CODING_API_KEY: wrong, MINIMAX_API_KEY: wrong }),
    );
    expect(fromConfig.ok).toBe(true);
    expect((await minimax({ MINIMAX_CODING_API_KEY: MINIMAX_TEST_KEY, MINIMAX_API_KEY: wrong })).ok).toBe(true);
    const codingWins = await minimax({ MINIMAX_CODING_API_KEY: wrong, MINIMAX_API_KEY: MINIMAX_TEST_KEY }, { source: "api" });
    expect(codingWins.error).toMatchObject({ code: "unauthorized", message: INVALID });
    expect(sim.sim.requests.at(-1)!.headers.authorization).toBe(`Bearer ${wrong}`);
  });

  it("is not configured without a token or a cookie, and names every way to add one", async () => {
    const usage = await minimax(webOnly);
    expect(usage.error?.code).toBe("not_configured");
    expect(usage.error?.message).toBe(
      "MiniMax API token not found. Set apiKey in the config file, MINIMAX_CODING_API_KEY or MINIMAX_API_KEY.",
    );
    for (const where of [
      "MINIMAX_CODING_API_KEY",
      "MINIMAX_API_KEY",
      "quotabar config set-key minimax --stdin",
      "MINIMAX_COOKIE",
      "providers[minimax].cookieHeader",
    ]) {
      expect(usage.error?.hint).toContain(where);
    }
    expect(sim.sim.requests).toHaveLength(0);
  });

  it("leaves a standard sk-api- key to the web route in auto mode, but uses it when the source is api", async () => {
    const standard = { MINIMAX_API_KEY: "sk-api-standard-0123456789" };
    const usage = await minimax(standard);
    expect(usage.error).toMatchObject({ code: "not_configured" });
    expect(usage.error?.message).toBe(
      "MiniMax standard API keys (sk-api-...) cannot read the coding plan, and no cookie header is configured.",
    );
    expect(sim.sim.requests).toHaveLength(0);
    expect((await minimax(standard, { source: "api" })).error?.code).toBe("unauthorized");
    expect(sim.sim.requests.length).toBeGreaterThan(0);
  });
});

describe("minimax with a manual cookie (web source)", () => {
  it("a cookie alone gets status 1004 from the remains API: says a Bearer token is needed", async () => {
    const usage = await minimax({ ...webOnly, MINIMAX_COOKIE: MINIMAX_TEST_COOKIE });
    expect(usage.error).toMatchObject({ code: "unauthorized", message: BEARER_NEEDED });
    expect(usage.error?.hint).toContain("MINIMAX_API_KEY");
    expect(usage.error?.hint).toContain("quotabar config set-key minimax --stdin");
    // The page first (an app shell without data), then the remains API, both with the cookie.
    expect(requested()).toEqual([`https://platform.minimax.io/user-center/payment/coding-plan`, `https://platform.minimax.io${REAL_PATH}`]);
    expect(sim.sim.requests.every((r) => r.headers.cookie === MINIMAX_TEST_COOKIE)).toBe(true);
    expect(JSON.stringify(usage)).not.toContain("minimax-sim-session");
  });

  it("a pasted cURL command brings its Bearer token and group id along", async () => {
    const usage = await withConfig({ cookieHeader: curlPaste }, () => minimax(webOnly));
    expect(usage).toMatchObject({ ok: true, source: "web", plan: "Max" });
    expect(usage.primary).toMatchObject({ usedPercent: 0.07, used: 11, limit: 15000 });
    const remains = sim.sim.requests.at(-1)!;
    expect(remains.query.get("GroupId")).toBe("1900000000000");
    expect(remains.headers).toMatchObject({
      authorization: `Bearer ${MINIMAX_WEB_TEST_TOKEN}`,
      cookie: `${MINIMAX_TEST_COOKIE}; _ga=GA1.1.1`,
      "x-requested-with": "XMLHttpRequest",
      origin: "https://platform.minimax.io",
      referer: "https://platform.minimax.io/user-center/payment/coding-plan",
    });
  });

  it("reads the coding plan from the page's Next.js data without calling the remains API", async () => {
    sim.sim.setScenario("minimax", "web_page");
    const usage = await minimax({ ...webOnly, MINIMAX_COOKIE_HEADER: `Cookie: ${MINIMAX_TEST_COOKIE}` });
    expect(usage).toMatchObject({ ok: true, source: "web", plan: "Pro" });
    expect(usage.primary).toMatchObject({ usedPercent: 30, used: 90, limit: 300, windowMinutes: 300 });
    expect(secondsUntil(usage.primary?.resetsAt)).toBeGreaterThan(7190);
    expect(sim.sim.requests).toHaveLength(1);
  });

  it("reads plan, prompts, window, percent and reset from the page text", async () => {
    sim.sim.setScenario("minimax", "web_text");
    const usage = await minimax({ ...webOnly, MINIMAX_COOKIE: MINIMAX_TEST_COOKIE });
    expect(usage).toMatchObject({ ok: true, plan: "Max" });
    expect(usage.primary).toMatchObject({ usedPercent: 0, used: null, limit: 1000, windowMinutes: 300, note: "1000 prompts / 5 hours" });
    expect(secondsUntil(usage.primary?.resetsAt)).toBeGreaterThan(230);
  });

  it("a cookie-only session refused with 1004 says a Bearer token is needed, even after a signed-in page showing the plan", async () => {
    // The page names the plan but renders its usage in the browser: no figure to read, so the remains API decides.
    sim.sim.setScenario("minimax", "web_signed_in");
    const usage = await minimax({ ...webOnly, MINIMAX_COOKIE: MINIMAX_TEST_COOKIE });
    expect(usage.ok).toBe(false);
    expect(usage.error).toMatchObject({ code: "unauthorized", message: BEARER_NEEDED });
    expect(usage.primary).toBeNull();
    expect(requested()).toEqual([`https://platform.minimax.io/user-center/payment/coding-plan`, `https://platform.minimax.io${REAL_PATH}`]);
  });

  it("a cookie-only session refused with 1004 says a Bearer token is needed, even after a sign-in page", async () => {
    sim.sim.setScenario("minimax", "web_signed_out");
    const usage = await minimax({ ...webOnly, MINIMAX_COOKIE: MINIMAX_TEST_COOKIE });
    expect(usage.error).toMatchObject({ code: "unauthorized", message: BEARER_NEEDED });
    expect(usage.error?.hint).toContain("providers[minimax].cookieHeader");
  });

  it("reports a sign-in page and a refused Bearer session as invalid credentials", async () => {
    sim.sim.setScenario("minimax", "web_signed_out");
    const usage = await withConfig({ cookieHeader: curlPaste }, () => minimax(webOnly));
    expect(usage.error).toMatchObject({ code: "unauthorized", message: INVALID });
    expect(usage.error?.hint).toContain("providers[minimax].cookieHeader");
  });

  it("auto: falls back from a refused API token to the cookie", async () => {
    sim.sim.setScenario("minimax", "unauthorized");
    const usage = await withConfig({ cookieHeader: curlPaste }, () => minimax());
    expect(usage).toMatchObject({ ok: true, source: "web" });
    expect(requested()[0]).toBe(`https://api.minimax.io${TOKEN_PLAN_PATH}`);
  });

  it("auto: falls back to the cookie when no API path exists", async () => {
    sim.sim.setScenario("minimax", "api_not_found");
    const usage = await withConfig({ cookieHeader: curlPaste }, () => minimax());
    expect(usage).toMatchObject({ ok: true, source: "web" });
    expect(requested().slice(0, 3)).toEqual([
      `https://api.minimax.io${TOKEN_PLAN_PATH}`,
      `https://api.minimax.io${REAL_PATH}`,
      `https://api.minimax.io${SPEC_PATH}`,
    ]);
  });

  it("source web skips the API token; cookieSource off ignores the config cookie", async () => {
    const usage = await withConfig({ source: "web", cookieHeader: curlPaste }, () => minimax());
    expect(usage).toMatchObject({ ok: true, source: "web" });
    expect(sim.sim.requests.every((r) => r.origin === "https://platform.minimax.io")).toBe(true);
    const off = await withConfig({ source: "web", cookieSource: "off", cookieHeader: curlPaste }, () => minimax());
    expect(off.error).toMatchObject({ code: "not_configured", message: "MiniMax cookie header not found." });
  });

  it("uses the China platform host for MINIMAX_HOST", async () => {
    await minimax({ ...webOnly, MINIMAX_COOKIE: MINIMAX_TEST_COOKIE, MINIMAX_HOST: "platform.minimaxi.com" });
    expect(sim.sim.requests.map((r) => r.origin)).toEqual(["https://platform.minimaxi.com", "https://platform.minimaxi.com"]);
  });
});

describe("minimax from the browsers: cookies with the web app's Local Storage token", () => {
  const SESSION_VALUE = MINIMAX_TEST_COOKIE.split("=")[1]!;
  const profile = (browser: string, name = "Default") => ({
    browser,
    profile: name,
    cookies: [storedCookie("HERTZ-SESSION", SESSION_VALUE, ".minimax.io"), storedCookie("_ga", "GA1.1.7", ".minimax.io")],
  });
  const token = (browser: string, value = MINIMAX_WEB_TEST_TOKEN, name = "Default") => ({
    browser,
    profile: name,
    origin: "https://platform.minimax.io",
    key: "access_token",
    value,
  });
  async function fromBrowsers(access: BrowserDouble, extra: Record<string, string | undefined> = {}) {
    const doc = await usageWithBrowsers(sim.env({ ...webOnly, ...extra }), access).usage({ providers: ["minimax"] });
    return doc.providers[0]!;
  }
  const remainsCalls = () => sim.sim.requests.filter((r) => r.path === REAL_PATH);
  const cached = async (access: BrowserDouble) => JSON.parse((await access.secrets.get("quotabar", "cookie:minimax")) ?? "null");

  it("sends a browser's cookies with the access token of the same profile's Local Storage, and its group id", async () => {
    const access = browserDouble([profile("chrome")], [token("chrome")]);
    expect(await fromBrowsers(access)).toMatchObject({ ok: true, source: "web", plan: "Max" });
    expect(access.cookieQueries).toEqual([
      {
        hosts: ["platform.minimax.io"],
        browsers: process.platform === "linux" ? ["safari", "chrome", "chromium", "firefox"] : ["safari", "chrome", "firefox"],
      },
    ]);
    expect(access.storageQueries).toEqual([
      {
        origins: [
          "https://platform.minimax.io",
          "https://www.minimax.io",
          "https://minimax.io",
          "https://platform.minimaxi.com",
          "https://www.minimaxi.com",
          "https://minimaxi.com",
        ],
        browsers: ["chrome"],
      },
    ]);
    const remains = remainsCalls()[0]!;
    expect(remains.headers).toMatchObject({
      authorization: `Bearer ${MINIMAX_WEB_TEST_TOKEN}`,
      cookie: `${MINIMAX_TEST_COOKIE}; _ga=GA1.1.7`,
    });
    expect(remains.query.get("GroupId")).toBe("190000000000");
  });

  it("keeps the session that worked (header, token, group) in the cache, so the next run reads no browser", async () => {
    const access = browserDouble([profile("chrome")], [token("chrome")]);
    await fromBrowsers(access);
    expect(await cached(access)).toMatchObject({
      header: `${MINIMAX_TEST_COOKIE}; _ga=GA1.1.7`,
      source: "chrome/Default",
      extra: { bearer: MINIMAX_WEB_TEST_TOKEN, groupId: "190000000000" },
    });
    sim.sim.requests.length = 0;
    expect((await fromBrowsers(access)).ok).toBe(true);
    expect([access.cookieQueries.length, access.storageQueries.length]).toEqual([1, 1]);
    expect(remainsCalls()[0]!.headers.authorization).toBe(`Bearer ${MINIMAX_WEB_TEST_TOKEN}`);
  });

  it("tries each profile in turn: its tokens, then its session cookie as the Bearer token, then the cookie alone", async () => {
    const access = browserDouble(
      [profile("chrome", "Work"), profile("chrome", "Home")],
      [token("chrome", `${MINIMAX_WEB_TEST_TOKEN}x`, "Work"), token("chrome", MINIMAX_WEB_TEST_TOKEN, "Home")],
    );
    expect((await fromBrowsers(access)).ok).toBe(true);
    expect(remainsCalls().map((r) => r.headers.authorization ?? "none")).toEqual([
      `Bearer ${MINIMAX_WEB_TEST_TOKEN}x`,
      `Bearer ${SESSION_VALUE}`,
      "none",
      `Bearer ${MINIMAX_WEB_TEST_TOKEN}`,
    ]);
    expect((await cached(access)).source).toBe("chrome/Home");
  });

  it("says a Bearer token is needed when a browser's cookie alone gets status 1004, and caches nothing", async () => {
    const access = browserDouble([profile("firefox")]);
    const usage = await fromBrowsers(access);
    expect(usage.error).toMatchObject({ code: "unauthorized", message: BEARER_NEEDED });
    expect(access.storageQueries.map((q) => q.browsers)).toEqual([["firefox"]]);
    expect(await cached(access)).toBeNull();
    expect(JSON.stringify(usage)).not.toContain(SESSION_VALUE);
  });

  it("comes before the manual header, which is still tried when the browsers' sessions are refused", async () => {
    const withToken = browserDouble([profile("chrome")], [token("chrome")]);
    expect((await withConfig({ cookieHeader: "HERTZ-SESSION=pasted-session-000" }, () => fromBrowsers(withToken))).ok).toBe(true);
    expect(remainsCalls().every((r) => r.headers.cookie !== "HERTZ-SESSION=pasted-session-000")).toBe(true);
    sim.sim.requests.length = 0;
    const refused = browserDouble([{ ...profile("chrome"), cookies: [storedCookie("HERTZ-SESSION", "logged-out-000", ".minimax.io")] }]);
    expect((await withConfig({ cookieHeader: curlPaste }, () => fromBrowsers(refused))).ok).toBe(true);
    expect(remainsCalls().at(-1)!.headers.cookie).toBe(`${MINIMAX_TEST_COOKIE}; _ga=GA1.1.1`);
    expect(await cached(refused)).toBeNull();
  });

  it("drops a refused cached session and reads the browsers afresh in the same run", async () => {
    const access = browserDouble([profile("chrome")], [token("chrome")]);
    const stale = {
      header: "HERTZ-SESSION=stale-000",
      storedAt: "x",
      source: "chrome/Default",
      extra: { bearer: "stale-token-0000000000" },
    };
    await access.secrets.set("quotabar", "cookie:minimax", JSON.stringify(stale));
    expect((await fromBrowsers(access)).ok).toBe(true);
    expect(remainsCalls()[0]!.headers.authorization).toBe("Bearer stale-token-0000000000");
    expect(access.cookieQueries).toHaveLength(1);
    expect((await cached(access)).extra.bearer).toBe(MINIMAX_WEB_TEST_TOKEN);
  });

  it("reads no browser with cookieSource manual, and says what the browsers showed when nothing is found", async () => {
    const access = browserDouble([], []);
    expect((await withConfig({ cookieSource: "manual" }, () => fromBrowsers(access))).error?.code).toBe("not_configured");
    expect(access.cookieQueries).toEqual([]);
    const usage = await fromBrowsers(access);
    expect(usage.error?.message).toBe(
      "MiniMax API token not found. Set apiKey in the config file, MINIMAX_CODING_API_KEY or MINIMAX_API_KEY.",
    );
    expect(usage.error?.hint).toContain("Browsers looked at: not installed here: safari, chrome");
    expect(usage.error?.hint).toContain("Sign in at https://platform.minimax.io in your browser.");
  });
});

describe("minimax Local Storage tokens", () => {
  const jwt = (claims: object) =>
    `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU`;
  const minimaxJwt = jwt({ GroupID: "1900000000001", UserName: "sim", padding: "x".repeat(20) });
  const otherJwt = jwt({ iss: "https://accounts.example.com", sub: "someone-else", padding: "y".repeat(20) });

  it("finds tokens under named keys, in JSON (JSON inside strings too) and as bare JWTs; MiniMax's own first", () => {
    const items = [
      { key: "persist:auth", value: JSON.stringify({ user: JSON.stringify({ accessToken: otherJwt }) }) },
      { key: "misc", value: `{"nested":{"deeper":[{"token":"${minimaxJwt}"}]}}` },
      { key: "short", value: "access_token=abcdefghijklmnopqrstuvwxyz" },
    ];
    expect(minimaxTokens(items)).toEqual({ tokens: [minimaxJwt, otherJwt], groupId: "1900000000001" });
    // without a long one, the shorter named token stands
    expect(minimaxTokens([items[2]!]).tokens).toEqual(["abcdefghijklmnopqrstuvwxyz"]);
  });

  it("reads the group id from a key naming a group before the token's claims", () => {
    expect(minimaxTokens([{ key: "user", value: JSON.stringify({ groupId: 1900000000002, token: minimaxJwt }) }]).groupId).toBe(
      "1900000000002",
    );
    expect(groupIdOfJwt(jwt({ org_id: "12345", groupName: "x" }))).toBe("12345");
    expect(groupIdOfJwt("not.a.jwt")).toBeNull();
    expect([isMiniMaxJwt(minimaxJwt), isMiniMaxJwt(otherJwt), isMiniMaxJwt(jwt({ iss: "minimax" }))]).toEqual([true, false, true]);
  });

  it("stays linear and bounded on hostile values", () => {
    const hostile = [
      { key: "a", value: `${"a".repeat(200_000)}.${"b".repeat(200_000)}` },
      { key: "b", value: "[".repeat(100_000) },
    ];
    expect(minimaxTokens(hostile)).toEqual({ tokens: [], groupId: null });
  });
});

describe("minimax policy and parsing", () => {
  const interval: MiniMaxWindow = {
    ...EMPTY_WINDOW,
    total: 1000,
    remaining: 250,
    startTime: 1_763_600_000_000,
    endTime: 1_763_618_000_000,
  };
  const lane = (fields: Partial<MiniMaxLane> = {}): MiniMaxLane => ({ model: null, interval, weekly: null, ...fields });
  const reading = (window: Partial<MiniMaxWindow>): MiniMaxReading => ({
    plan: "Max",
    lanes: [lane({ interval: { ...interval, ...window } })],
  });
  const now = new Date(1_763_610_000_000);

  it("takes remains_time before end_time (spec order), in ms or s", () => {
    expect(minimaxSnapshot(reading({ remainsTime: 8_941_292 }), now).primary?.resetsAt).toBe(
      new Date(1_763_610_000_000 + 8_941_292).toISOString(),
    );
    // 3600 read as seconds lands nearer the window's end (8000 s away) than 3.6 s does.
    expect(minimaxSnapshot(reading({ remainsTime: 3600 }), now).primary?.resetsAt).toBe(new Date(1_763_613_600_000).toISOString());
    // 500000 with the end 500 s away is milliseconds (read as seconds it would be 5.8 days).
    expect(minimaxSnapshot(reading({ remainsTime: 500_000, endTime: 1_763_610_500_000 }), now).primary?.resetsAt).toBe(
      new Date(1_763_610_500_000).toISOString(),
    );
    expect(minimaxSnapshot(reading({}), now).primary?.resetsAt).toBe(new Date(1_763_618_000_000).toISOString());
    expect(minimaxSnapshot(reading({}), new Date(1_763_700_000_000)).primary?.resetsAt).toBeNull();
  });

  it("tells a remains_time in seconds from milliseconds at a week's seconds, when nothing else settles it", () => {
    const bare = (remainsTime: number) => minimaxSnapshot(reading({ remainsTime, startTime: null, endTime: null }), now).primary?.resetsAt;
    expect(MAX_REMAINS_SECONDS).toBe(604_800);
    // at the boundary: seconds (a whole week left)
    expect(bare(604_800)).toBe(new Date(1_763_610_000_000 + 604_800_000).toISOString());
    // one past it cannot be seconds (longer than any MiniMax window): milliseconds, about 10 minutes
    expect(bare(604_801)).toBe(new Date(1_763_610_000_000 + 604_801).toISOString());
    // above the boundary no window makes it seconds, even one it would fit as seconds
    const weekLong = { startTime: 1_763_000_000_000, endTime: 1_763_000_000_000 + 14 * 86_400_000 };
    expect(minimaxSnapshot(reading({ remainsTime: 700_000, ...weekLong }), now).primary?.resetsAt).toBe(
      new Date(1_763_610_000_000 + 700_000).toISOString(),
    );
  });

  it("reads current_interval_remaining_count before current_interval_usage_count; both count what is left", () => {
    const item = { current_interval_total_count: 300, start_time: 1_763_600_000_000, end_time: 1_763_618_000_000 };
    const left = (fields: Record<string, unknown>) =>
      minimaxRemainsReading({ model_remains: [{ ...item, ...fields }] }, "api").lanes[0]?.interval.remaining;
    expect(left({ current_interval_remaining_count: "120" })).toBe(120);
    expect(left({ current_interval_usage_count: 200 })).toBe(200);
    expect(left({ current_interval_remaining_count: 120, current_interval_usage_count: 200 })).toBe(120);
    expect(() => left({ current_interval_remaining_count: -1 })).toThrow(/current_interval_remaining_count/);
  });

  it("reads epoch seconds for the window, and clamps used between 0 and the total", () => {
    const seconds = minimaxSnapshot(reading({ startTime: 1_763_600_000, endTime: 1_763_686_400, remaining: 1200 }), now).primary;
    expect(seconds).toMatchObject({ windowMinutes: 1440, note: "1000 prompts / 1 day", used: 0, usedPercent: 0 });
    const odd = minimaxSnapshot(reading({ endTime: 1_763_605_400_000, remaining: 0 }), now).primary;
    expect(odd).toMatchObject({ windowMinutes: 90, note: "1000 prompts / 90 minutes", usedPercent: 100 });
  });

  it("lets the remaining percent win over the counts when both are sent", () => {
    const primary = minimaxSnapshot(reading({ remainingPercent: 40 }), now).primary;
    expect(primary).toMatchObject({ usedPercent: 60, used: 750, limit: 1000 });
  });

  it("leads with the first text lane, whatever the order sent; its weekly twin is the secondary", () => {
    const weekly: MiniMaxWindow = { ...EMPTY_WINDOW, remainingPercent: 70, remainsTime: 86_400_000 };
    const snapshot = minimaxSnapshot(
      {
        plan: null,
        lanes: [
          lane({ model: "speech-02-hd", interval: { ...interval, remainingPercent: 10 }, weekly: { ...weekly, remainingPercent: 50 } }),
          lane({ model: "hailuo-02", interval: { ...interval, remaining: 1000 } }),
          lane({ model: "MiniMax-M2", weekly }),
        ],
      },
      now,
    );
    expect(snapshot.primary).toMatchObject({ label: "Prompts", usedPercent: 75 });
    // a weekly window sent without its times is a week long
    expect(snapshot.secondary).toMatchObject({
      label: "Weekly",
      usedPercent: 30,
      resetsAt: new Date(1_763_696_400_000).toISOString(),
      windowMinutes: 10_080,
    });
    expect(snapshot.details).toEqual([
      { label: "speech-02-hd", value: "90% used · weekly 50% used" },
      { label: "hailuo-02", value: "0% used" },
    ]);
  });

  it("reads every model_remains item of today's answer, text lanes first", () => {
    const decoded = minimaxRemainsReading(JSON.parse(fixture("remains-token-plan.json")), "api");
    expect(decoded.lanes.map((l) => l.model)).toEqual(["general", "speech-02-hd"]);
    expect(decoded.lanes[0]!.weekly).toMatchObject({ remainingPercent: 99, startTime: 1_779_984_000_000, remainsTime: 308_259_830 });
    expect(decoded.lanes[1]!.interval).toMatchObject({ total: 4000, remaining: 3400 });
  });

  it("refuses a body with no recognised field as a parse error, never a 0 % meter", () => {
    const bodies = [
      {},
      { status: "ok", quota: 5 },
      { data: null },
      { current_subscribe_title: "Max", model_remains: [{}] },
      { current_subscribe_title: "Max", model_remains: [{ current_interval_total_count: 0, current_interval_usage_count: 0 }] },
      { model_remains: [{ current_interval_total_count: 1000 }] },
    ];
    for (const body of bodies) {
      expect(() => minimaxRemainsReading(body, "api"), JSON.stringify(body)).toThrowError(
        expect.objectContaining({ code: "parse", message: expect.stringContaining("Missing coding plan data") }),
      );
    }
    expect(() => minimaxRemainsReading([1, 2], "api")).toThrowError(expect.objectContaining({ code: "parse" }));
    // a page naming the plan and its prompts, but no percent, has no usage either
    const page = readCodingPlanPage("<h2>Coding Plan Max</h2><p>Available usage: 1,000 prompts / 5 hours</p>", now, "web-cookie");
    expect(page).toEqual({ reading: null, signedOut: false });
  });

  it("parses pasted cURL commands and plain headers", () => {
    expect(minimaxSessionFromPaste(curlPaste)).toEqual({
      cookieHeader: `${MINIMAX_TEST_COOKIE}; _ga=GA1.1.1`,
      bearer: MINIMAX_WEB_TEST_TOKEN,
      groupId: "1900000000000",
    });
    expect(minimaxSessionFromPaste(`Cookie: ${MINIMAX_TEST_COOKIE}`)).toEqual({
      cookieHeader: MINIMAX_TEST_COOKIE,
      bearer: null,
      groupId: null,
    });
    expect(minimaxSessionFromPaste("just words")).toBeNull();
  });

  it("ignores sign-in words inside scripts", () => {
    const signedOut = (html: string) => readCodingPlanPage(html, now, "web-cookie").signedOut;
    expect(signedOut(fixture("coding-plan-shell.html"))).toBe(false);
    expect(signedOut(fixture("coding-plan-signed-in.html"))).toBe(false);
    expect(signedOut(fixture("sign-in.html"))).toBe(true);
    expect(signedOut("<p>请登录</p>")).toBe(true);
  });

  it("reads the page's text, including a clock-time reset in a named zone, and a plan from inline state", () => {
    const at = new Date("2026-11-20T10:00:00Z");
    const page = readCodingPlanPage(
      "<p>Coding Plan Plus available usage: 4,500 prompts / 5 h</p><p>Used 12.5%</p><p>Resets at 09:30 (UTC)</p>",
      at,
      "web-cookie",
    );
    expect(page.reading?.plan).toBe("Plus");
    expect(minimaxSnapshot(page.reading!, at).primary).toMatchObject({
      usedPercent: 12.5,
      limit: 4500,
      windowMinutes: 300,
      resetsAt: "2026-11-21T09:30:00.000Z",
    });
    const state = readCodingPlanPage('<script>window.__STATE__={"planName":"Max plan"}</script><p>25% used</p>', at, "web-cookie");
    expect(state.reading).toMatchObject({ plan: "Max", lanes: [{ interval: { remainingPercent: 75 } }] });
    expect(nextClockTime(11, 15, "Asia/Shanghai", at)).toBe("2026-11-21T03:15:00.000Z");
    expect(nextClockTime(19, 0, "Asia/Shanghai", at)).toBe("2026-11-20T11:00:00.000Z");
    expect(readCodingPlanPage("<html><body>Nothing here</body></html>", at, "web-cookie").reading).toBeNull();
  });

  it("reads 1 MB of hostile markup to a clear result", { timeout: 60_000 }, () => {
    const size = 1024 * 1024;
    const fill = (unit: string, length = size) => unit.repeat(Math.ceil(length / unit.length));
    const hostile = [
      fill("<"),
      fill("<div "),
      fill(`<a href="'`),
      fill(`"'<`),
      fill("<script"),
      fill("<!--"),
      fill("<span>"),
      `<script id="__NEXT_DATA__">${fill("[")}</script>`,
      `<script id="__NEXT_DATA__">${fill("[", size / 2)}${fill("]", size / 2)}</script>`,
      `<script>"planName"${fill(" ", size / 2)}:</script>${fill("1.", size / 2)}`,
      `Coding Plan available usage: ${fill("1,")}`,
      `Resets at 1:00 (${fill("(")}`,
      fill("12.5 % "),
    ];
    for (const html of hostile) {
      let outcome: unknown;
      try {
        outcome = readCodingPlanPage(html, now, "web-cookie");
      } catch (error) {
        outcome = error;
      }
      if (outcome instanceof Error) expect(outcome).toMatchObject({ code: "parse" });
      else expect(outcome).toMatchObject({ signedOut: expect.any(Boolean) });
    }
    // the nested one is refused as such; percents never followed by "used" are not usage
    expect(() => readCodingPlanPage(fill("<span>"), now, "web-cookie")).toThrowError(/nested too deeply/);
    expect(readCodingPlanPage(fill("12.5 % "), now, "web-cookie").reading).toBeNull();
    expect(() => readCodingPlanPage("<p>" + "x".repeat(3 * size), now, "web-cookie")).toThrowError(
      expect.objectContaining({ code: "upstream", message: "MiniMax sent a page too large to read (over 2 MB)" }),
    );
  });

  it("resolves regions and URLs: full override, then host, then region", () => {
    const context = (env: Record<string, string>, region?: string) =>
      ({ env, entry: { id: "minimax", ...(region ? { region } : {}) } }) as unknown as FetchContext;
    expect(minimaxRegion("China")).toBe("cn");
    expect(minimaxRegion("global")).toBe("global");
    expect(minimaxRegion("mars")).toBe("global");
    expect(minimaxApiRemainsUrls(context({}), "global")).toEqual([
      `https://api.minimax.io${TOKEN_PLAN_PATH}`,
      `https://api.minimax.io${REAL_PATH}`,
      `https://api.minimax.io${SPEC_PATH}`,
    ]);
    expect(minimaxApiRemainsUrls(context({ MINIMAX_REMAINS_URL: "https://gw.example.com/r" }), "global")).toEqual([
      "https://gw.example.com/r",
    ]);
    expect(minimaxCodingPlanUrl(context({}, "cn"))).toBe("https://platform.minimaxi.com/user-center/payment/coding-plan?cycle_type=3");
    expect(minimaxCodingPlanUrl(context({ MINIMAX_HOST: "https://platform.minimaxi.com/some/path" }))).toBe(
      "https://platform.minimaxi.com/user-center/payment/coding-plan?cycle_type=3",
    );
    expect(minimaxCodingPlanUrl(context({ MINIMAX_CODING_PLAN_URL: "https://gw.example.com/plan?x=1", MINIMAX_HOST: "a.example" }))).toBe(
      "https://gw.example.com/plan?x=1",
    );
    expect(minimaxWebRemainsUrl(context({}), "12345")).toBe(`https://platform.minimax.io${REAL_PATH}?GroupId=12345`);
  });

  it("succeeds on the China host when the Global host refuses the token", async () => {
    const calls: string[] = [];
    const contextOver = (transport: HttpTransport) => {
      const signal = new AbortController().signal;
      const http = scopedHttp(transport, { service: "MiniMax", signal, deadline: Date.now() + 5000, budgetMs: 5000, secrets: [] });
      return { env: {}, entry: { id: "minimax" }, now: () => now, sourceMode: "auto", http, signal, timeoutMs: 5000 } as FetchContext;
    };
    const chinaAnswers = contextOver({
      async send(request) {
        calls.push(request.url);
        const china = request.url.startsWith("https://api.minimaxi.com");
        return { status: china ? 200 : 401, headers: {}, body: china ? fixture("remains-ok.json") : "{}", url: request.url };
      },
    });
    const reading = await minimaxApi.fetch(MINIMAX_TEST_KEY, chinaAnswers);
    expect(reading).toMatchObject({ plan: "Max", lanes: [{ interval: { total: 1000, remaining: 250 } }] });
    expect(calls).toEqual([`https://api.minimax.io${TOKEN_PLAN_PATH}`, `https://api.minimaxi.com${TOKEN_PLAN_PATH}`]);
    const chinaFails = contextOver({
      send: async (r) => ({ status: r.url.includes("minimaxi") ? 500 : 401, headers: {}, body: "", url: r.url }),
    });
    const error = (await minimaxApi.fetch(MINIMAX_TEST_KEY, chinaFails).catch((e) => e)) as QuotabarError;
    expect(error).toMatchObject({ code: "unauthorized", message: INVALID });
  });
});
