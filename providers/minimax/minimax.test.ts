import { describe, expect, it } from "vitest";
import type { QuotabarError } from "../../domain/errors.js";
import { scopedHttp } from "../../domain/scoped-http.js";
import type { FetchContext } from "../../ports/fetch-context.js";
import type { HttpTransport } from "../../ports/http-client.js";
import { fixturesOf } from "../../simulator/fixtures.js";
import { useSimulator } from "../../test/helpers/harness.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { minimaxApi } from "./api.js";
import { codingPlanFromPage, looksSignedOut, nextClockTime } from "./page.js";
import { minimaxSnapshot, type MiniMaxReading } from "./policy.js";
import { minimaxSessionFromPaste } from "./session.js";
import { MINIMAX_TEST_COOKIE, MINIMAX_TEST_KEY, MINIMAX_WEB_TEST_TOKEN } from "./simulator.js";
import { minimaxApiRemainsUrls, minimaxCodingPlanUrl, minimaxRegion, minimaxWebRemainsUrl } from "./urls.js";

const fixture = fixturesOf(import.meta.url);
const sim = useSimulator();
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
const webOnly = { MINIMAX_API_KEY: undefined };
const curlPaste = `curl 'https://platform.minimax.io/v1/api/openplatform/coding_plan/remains?group_id=1900000000000' -H 'accept: application/json' -H 'authorization: Bearer ${MINIMAX_WEB_TEST_TOKEN}' -H 'cookie: ${MINIMAX_TEST_COOKIE}; _ga=GA1.1.1' --compressed`;

describe("minimax with an API token", () => {
  it("takes percent used from model_remains, counting current_interval_usage_count as what is left", async () => {
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
  });

  it("calls the real remains path on the Global API host with the Bearer token", async () => {
    await minimax();
    expect(requested()).toEqual([`https://api.minimax.io${REAL_PATH}`]);
    expect(sim.sim.requests[0]!.headers).toMatchObject({
      authorization: `Bearer ${MINIMAX_TEST_KEY}`,
      accept: "application/json",
      "content-type": "application/json",
      "mm-api-source": "quotabar",
    });
  });

  it("falls back to the spec's path when the real one answers 404", async () => {
    sim.sim.setScenario("minimax", "legacy_path");
    const usage = await minimax();
    expect(usage).toMatchObject({ ok: true, source: "api", plan: "Max" });
    expect(requested()).toEqual([`https://api.minimax.io${REAL_PATH}`, `https://api.minimax.io${SPEC_PATH}`]);
  });

  it("reads the data-wrapped form with string counters and a millisecond remains_time", async () => {
    sim.sim.setScenario("minimax", "wrapped");
    const usage = await minimax();
    expect(usage.primary).toMatchObject({ usedPercent: 0.07, used: 11, limit: 15000, windowMinutes: 300 });
    expect(secondsUntil(usage.primary?.resetsAt)).toBeGreaterThan(8930);
    expect(secondsUntil(usage.primary?.resetsAt)).toBeLessThanOrEqual(8942);
  });

  it("uses the remaining percent of newer responses when the counts are zero", async () => {
    sim.sim.setScenario("minimax", "percent_only");
    const usage = await minimax();
    expect(usage.plan).toBe("Plus");
    expect(usage.primary).toMatchObject({ usedPercent: 4, used: null, limit: null, windowMinutes: 300, note: "5 hours" });
  });

  it("reports status 1004 for a token as invalid credentials, after trying the China host once", async () => {
    sim.sim.setScenario("minimax", "status_1004");
    const usage = await minimax();
    expect(usage.error).toMatchObject({ code: "unauthorized", message: INVALID });
    expect(requested()).toEqual([`https://api.minimax.io${REAL_PATH}`, `https://api.minimaxi.com${REAL_PATH}`]);
  });

  it("reports HTTP 401 as unauthorized, naming the variable and set-key, without the token", async () => {
    sim.sim.setScenario("minimax", "unauthorized");
    const usage = await minimax();
    expect(usage.error).toMatchObject({ code: "unauthorized", message: INVALID });
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

  it("fails with a parse error for an empty model_remains, and names the bad field of a malformed body", async () => {
    const parseMessages: Record<string, string> = {
      empty: "Failed to parse MiniMax coding plan: Missing coding plan data (model_remains is empty).",
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
    expect(requested()).toEqual([`https://api.minimaxi.com${REAL_PATH}`]);
    sim.sim.requests.length = 0;
    expect((await minimax({ MINIMAX_HOST: "platform.minimaxi.com" })).ok).toBe(true);
    expect(requested()).toEqual([`https://api.minimaxi.com${REAL_PATH}`]);
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

  it("prefers the config apiKey over MINIMAX_API_KEY", async () => {
    const usage = await withConfig({ apiKey: MINIMAX_TEST_KEY }, () => minimax({ MINIMAX_API_KEY: "sk-cp-wrong-000000000000" }));
    expect(usage.ok).toBe(true);
  });

  it("is not configured without a token or a cookie, and names every way to add one", async () => {
    const usage = await minimax(webOnly);
    expect(usage.error?.code).toBe("not_configured");
    expect(usage.error?.message).toBe("MiniMax API token not found. Set apiKey in the config file or MINIMAX_API_KEY.");
    for (const where of [
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
    expect(usage.error?.code).toBe("unauthorized");
    expect(usage.error?.message).toBe("MiniMax refused the cookie-only session (status 1004): the remains API needs a Bearer API token.");
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

  it("reports a sign-in page as invalid credentials", async () => {
    sim.sim.setScenario("minimax", "web_signed_out");
    const usage = await minimax({ ...webOnly, MINIMAX_COOKIE: MINIMAX_TEST_COOKIE });
    expect(usage.error).toMatchObject({ code: "unauthorized", message: INVALID });
    expect(usage.error?.hint).toContain("providers[minimax].cookieHeader");
  });

  it("auto: falls back from a refused API token to the cookie", async () => {
    sim.sim.setScenario("minimax", "unauthorized");
    const usage = await withConfig({ cookieHeader: curlPaste }, () => minimax());
    expect(usage).toMatchObject({ ok: true, source: "web" });
    expect(requested()[0]).toBe(`https://api.minimax.io${REAL_PATH}`);
  });

  it("auto: falls back to the cookie when neither API path exists", async () => {
    sim.sim.setScenario("minimax", "api_not_found");
    const usage = await withConfig({ cookieHeader: curlPaste }, () => minimax());
    expect(usage).toMatchObject({ ok: true, source: "web" });
    expect(requested().slice(0, 2)).toEqual([`https://api.minimax.io${REAL_PATH}`, `https://api.minimax.io${SPEC_PATH}`]);
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

describe("minimax policy and parsing", () => {
  const base: MiniMaxReading = {
    plan: "Max",
    total: 1000,
    remaining: 250,
    remainingPercent: null,
    pageUsedPercent: null,
    startTime: 1_763_600_000_000,
    endTime: 1_763_618_000_000,
    remainsTime: null,
    pageWindowMinutes: null,
    pageResetsAt: null,
  };
  const now = new Date(1_763_610_000_000);

  it("takes remains_time before end_time (spec order), in ms or s", () => {
    expect(minimaxSnapshot({ ...base, remainsTime: 8_941_292 }, now).primary?.resetsAt).toBe(
      new Date(1_763_610_000_000 + 8_941_292).toISOString(),
    );
    // 3600 read as seconds fits in the 5-hour window, so it is seconds.
    expect(minimaxSnapshot({ ...base, remainsTime: 3600 }, now).primary?.resetsAt).toBe(new Date(1_763_613_600_000).toISOString());
    expect(minimaxSnapshot(base, now).primary?.resetsAt).toBe(new Date(1_763_618_000_000).toISOString());
    expect(minimaxSnapshot(base, new Date(1_763_700_000_000)).primary?.resetsAt).toBeNull();
  });

  it("reads epoch seconds for the window, and clamps used between 0 and the total", () => {
    const seconds = minimaxSnapshot({ ...base, startTime: 1_763_600_000, endTime: 1_763_686_400, remaining: 1200 }, now).primary;
    expect(seconds).toMatchObject({ windowMinutes: 1440, note: "1000 prompts / 1 day", used: 0, usedPercent: 0 });
    const odd = minimaxSnapshot({ ...base, endTime: 1_763_605_400_000, remaining: 0 }, now).primary;
    expect(odd).toMatchObject({ windowMinutes: 90, note: "1000 prompts / 90 minutes", usedPercent: 100 });
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
    expect(looksSignedOut(fixture("coding-plan-shell.html"))).toBe(false);
    expect(looksSignedOut(fixture("sign-in.html"))).toBe(true);
    expect(looksSignedOut("<p>请登录</p>")).toBe(true);
  });

  it("reads the page's text regexes, including a clock-time reset in a named zone", () => {
    const at = new Date("2026-11-20T10:00:00Z");
    const reading = codingPlanFromPage(
      "<p>Coding Plan Plus available usage: 4,500 prompts / 5 h</p><p>Used 12.5%</p><p>Resets at 09:30 (UTC)</p>",
      at,
      "web-cookie",
    );
    expect(reading).toMatchObject({
      plan: "Plus",
      total: 4500,
      pageWindowMinutes: 300,
      pageUsedPercent: 12.5,
      pageResetsAt: "2026-11-21T09:30:00.000Z",
    });
    expect(nextClockTime(11, 15, "Asia/Shanghai", at)).toBe("2026-11-21T03:15:00.000Z");
    expect(nextClockTime(19, 0, "Asia/Shanghai", at)).toBe("2026-11-20T11:00:00.000Z");
    expect(codingPlanFromPage("<html><body>Nothing here</body></html>", at, "web-cookie")).toBeNull();
  });

  it("resolves regions and URLs: full override, then host, then region", () => {
    const context = (env: Record<string, string>, region?: string) =>
      ({ env, entry: { id: "minimax", ...(region ? { region } : {}) } }) as unknown as FetchContext;
    expect(minimaxRegion("China")).toBe("cn");
    expect(minimaxRegion("global")).toBe("global");
    expect(minimaxRegion("mars")).toBe("global");
    expect(minimaxApiRemainsUrls(context({}), "global")).toEqual([
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
    expect(reading).toMatchObject({ plan: "Max", total: 1000, remaining: 250 });
    expect(calls).toEqual([`https://api.minimax.io${REAL_PATH}`, `https://api.minimaxi.com${REAL_PATH}`]);
    const chinaFails = contextOver({
      send: async (r) => ({ status: r.url.includes("minimaxi") ? 500 : 401, headers: {}, body: "", url: r.url }),
    });
    const error = (await minimaxApi.fetch(MINIMAX_TEST_KEY, chinaFails).catch((e) => e)) as QuotabarError;
    expect(error).toMatchObject({ code: "unauthorized", message: INVALID });
  });
});
