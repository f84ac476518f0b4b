import { describe, expect, it } from "vitest";
import { MAX_HTML_DEPTH } from "../kit/html.js";
import { useSimulator } from "../../test/helpers/harness.js";
import { browserDouble, storedCookie, usageWithBrowsers, type BrowserDouble } from "../../test/helpers/browser-double.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { ollamaPlan, ollamaSnapshot } from "./policy.js";
import { readSettingsPage } from "./settings-page.js";
import { OLLAMA_TEST_COOKIE, OLLAMA_TEST_SESSION } from "./simulator.js";

const sim = useSimulator();
const EXPIRED = "Ollama session cookie expired. Please log in again.";

async function ollama(extra: Record<string, string | undefined> = {}, timeoutMs?: number) {
  const doc = await sim.quotabar(extra, timeoutMs).usage({ providers: ["ollama"] });
  return doc.providers[0]!;
}

async function withConfig<T>(entry: object, run: () => Promise<T>): Promise<T> {
  const cleanup = writeConfig(sim.home, { providers: [{ id: "ollama", ...entry }] });
  return run().finally(cleanup);
}

describe("ollama against the simulator", () => {
  it("asks for /settings as Chrome does, with every cookie of the header", async () => {
    await ollama();
    const request = sim.sim.requests[0]!;
    expect(request).toMatchObject({ method: "GET", path: "/settings", origin: "https://ollama.com" });
    expect(request.headers).toMatchObject({
      cookie: OLLAMA_TEST_COOKIE,
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      "accept-language": "en-US,en;q=0.9",
      origin: "https://ollama.com",
      referer: "https://ollama.com/settings",
    });
    expect(request.headers["user-agent"]).toMatch(/^Mozilla\/5\.0 .* Chrome\/143\.0\.0\.0 Safari\/537\.36$/);
  });

  it("maps the Pro page: session and weekly bars, their data-time resets, the plan, the account", async () => {
    const usage = await ollama();
    expect(usage).toMatchObject({ ok: true, source: "web", plan: "Pro", tertiary: null });
    expect(usage.primary).toMatchObject({ label: "Session", usedPercent: 12.4, resetsAt: "2026-03-12T18:00:00.000Z", windowMinutes: 300 });
    expect(usage.secondary).toMatchObject({
      label: "Weekly",
      usedPercent: 41,
      resetsAt: "2026-03-16T00:00:00.000Z",
      windowMinutes: 10_080,
    });
    expect(usage.details).toEqual([{ label: "Account", value: "user@example.com" }]);
  });

  it("reads the Hourly label and the bars' width, and never lends the weekly reset to a bar without its own", async () => {
    sim.sim.setScenario("ollama", "free_hourly");
    const usage = await ollama();
    expect(usage.plan).toBe("Free");
    expect(usage.primary).toMatchObject({ label: "Hourly", usedPercent: 68.5, resetsAt: null, windowMinutes: null });
    expect(usage.secondary).toMatchObject({ label: "Weekly", usedPercent: 23, resetsAt: "2026-03-16T00:00:00.000Z" });
  });

  it("normalises the max badge and shows an exhausted session as 100 %", async () => {
    sim.sim.setScenario("ollama", "max");
    const usage = await ollama();
    expect(usage).toMatchObject({ plan: "Max", primary: { usedPercent: 100 }, secondary: { usedPercent: 87.5 } });
  });

  it.each([
    "session",
    "ollama_session",
    "__Host-ollama_session",
    "__Secure-session",
    "wos-session",
    "__Secure-next-auth.session-token",
    "next-auth.session-token",
    "__Secure-next-auth.session-token.0",
    "next-auth.session-token.1",
  ])("recognises the session cookie %s", async (name) => {
    const usage = await ollama({ OLLAMA_COOKIE: `_ga=GA1.1.42; ${name}=${OLLAMA_TEST_SESSION}` });
    expect(usage.ok).toBe(true);
    expect(sim.sim.requests[0]!.headers.cookie).toBe(`_ga=GA1.1.42; ${name}=${OLLAMA_TEST_SESSION}`);
  });

  it("says no session cookie found, without a request, when nothing is pasted or the header has no session cookie", async () => {
    const none = await ollama({ OLLAMA_COOKIE: undefined });
    expect(none.error).toMatchObject({ code: "not_configured", message: "No Ollama session cookie found." });
    expect(none.error?.hint).toContain("https://ollama.com/settings");
    expect(none.error?.hint).toContain("providers[ollama].cookieHeader");
    for (const header of ["_ga=GA1.1.42; theme=dark", "next-auth.session-token.x=abc", "next-auth.csrf-token=abc", "session="]) {
      const usage = await ollama({ OLLAMA_COOKIE: header });
      expect(usage.error?.code, header).toBe("not_configured");
      expect(usage.error?.message, header).toMatch(/^No Ollama session cookie found: the cookie header has no session cookie/);
    }
    expect(sim.sim.requests).toEqual([]);
  });

  it("says the session cookie expired when ollama.com redirects to its sign-in page", async () => {
    sim.sim.setScenario("ollama", "expired");
    const usage = await ollama();
    expect(usage.error).toMatchObject({ code: "expired", message: EXPIRED });
    expect(usage.error?.hint).toContain("https://ollama.com/signin");
    expect(sim.sim.requests.map((r) => r.path)).toEqual(["/settings", "/signin"]);
  });

  it("says the session cookie expired on 401, and when the settings page is a sign-in form", async () => {
    sim.sim.setScenario("ollama", "unauthorized");
    expect((await ollama()).error).toMatchObject({ code: "expired", message: EXPIRED });
    sim.sim.setScenario("ollama", "signed_out");
    expect((await ollama()).error).toMatchObject({ code: "expired", message: EXPIRED });
  });

  it("reports a signed-in page without usage bars as a parse error naming what was missing, never 0 %", async () => {
    sim.sim.setScenario("ollama", "malformed");
    const usage = await ollama();
    expect(usage).toMatchObject({ ok: false, primary: null, secondary: null });
    expect(usage.error).toMatchObject({
      code: "parse",
      message: "Could not parse Ollama usage: the settings page has no Session usage, Hourly usage or Weekly usage bar.",
    });
  });

  it("reports a JSON answer in place of the page as a parse error", async () => {
    sim.sim.setScenario("ollama", "json_answer");
    expect((await ollama()).error?.code).toBe("parse");
  });

  it("maps a server error to upstream, and a slow page to the time budget", async () => {
    sim.sim.setScenario("ollama", "upstream_500");
    expect((await ollama()).error).toMatchObject({ code: "upstream", message: "Ollama API error: HTTP 500" });
    sim.sim.setScenario("ollama", "slow");
    expect((await ollama({}, 300)).error?.code).toBe("timeout");
  });

  it("takes the config's cookie header over OLLAMA_COOKIE (a cURL paste too), and none with cookieSource off", async () => {
    const curl = `curl 'https://ollama.com/settings' -H 'accept: text/html' -H 'cookie: session=${OLLAMA_TEST_SESSION}; theme=light'`;
    const usage = await withConfig({ cookieHeader: curl }, () => ollama({ OLLAMA_COOKIE: "session=wrong-value-000" }));
    expect(usage.ok).toBe(true);
    expect(sim.sim.requests[0]!.headers.cookie).toBe(`session=${OLLAMA_TEST_SESSION}; theme=light`);
    const off = await withConfig({ cookieSource: "off", cookieHeader: curl }, () => ollama({ OLLAMA_COOKIE: undefined }));
    expect(off.error?.message).toBe("No Ollama session cookie found.");
  });
});

describe("ollama from the browsers (cookie source auto)", () => {
  const CHROME_ORDER = process.platform === "linux" ? ["chrome", "chromium"] : ["chrome"];
  const signedIn = (browser: string, value = OLLAMA_TEST_SESSION) => ({
    browser,
    profile: "Default",
    cookies: [storedCookie("__Secure-session", value, "ollama.com"), storedCookie("theme", "dark", ".ollama.com")],
  });
  async function fromBrowsers(access: BrowserDouble, extra: Record<string, string | undefined> = {}) {
    const doc = await usageWithBrowsers(sim.env({ OLLAMA_COOKIE: undefined, ...extra }), access).usage({ providers: ["ollama"] });
    return doc.providers[0]!;
  }
  const cached = async (access: BrowserDouble) => JSON.parse((await access.secrets.get("quotabar", "cookie:ollama")) ?? "null");

  it("reads Chrome only by default (Chromium after it on Linux), sends every cookie, and caches the header for the next run", async () => {
    const access = browserDouble([signedIn("chrome"), signedIn("brave", "brave-session-0000000000")]);
    expect(await fromBrowsers(access)).toMatchObject({ ok: true, source: "web", plan: "Pro" });
    expect(access.cookieQueries).toEqual([{ hosts: ["ollama.com", "www.ollama.com"], browsers: CHROME_ORDER }]);
    expect(sim.sim.requests[0]!.headers.cookie).toBe(`__Secure-session=${OLLAMA_TEST_SESSION}; theme=dark`);
    expect(await cached(access)).toMatchObject({ header: `__Secure-session=${OLLAMA_TEST_SESSION}; theme=dark`, source: "chrome/Default" });
    expect((await fromBrowsers(access)).ok).toBe(true);
    expect(access.cookieQueries).toHaveLength(1);
  });

  it("lets a pasted header win, and reads no browser with cookieSource manual or off", async () => {
    const access = browserDouble([signedIn("chrome", "chrome-session-0000000000")]);
    expect((await fromBrowsers(access, { OLLAMA_COOKIE: OLLAMA_TEST_COOKIE })).ok).toBe(true);
    for (const cookieSource of ["manual", "off"]) {
      const usage = await withConfig({ cookieSource }, () => fromBrowsers(access));
      expect(usage.error?.message).toBe("No Ollama session cookie found.");
    }
    expect(access.cookieQueries).toEqual([]);
  });

  it("drops a refused cached header and reads the browser afresh, once, in the same run", async () => {
    const access = browserDouble([signedIn("chrome")]);
    const stale = { header: "__Secure-session=stale-session-0000000000", storedAt: "2026-03-01T00:00:00Z", source: "chrome/Default" };
    await access.secrets.set("quotabar", "cookie:ollama", JSON.stringify(stale));
    expect(await fromBrowsers(access)).toMatchObject({ ok: true, plan: "Pro" });
    expect(sim.sim.requests.map((r) => r.path)).toEqual(["/settings", "/signin", "/settings"]);
    expect((await cached(access)).header).toBe(`__Secure-session=${OLLAMA_TEST_SESSION}; theme=dark`);
  });

  it("forgets a freshly read header ollama.com refuses, and says the session expired", async () => {
    const access = browserDouble([signedIn("chrome", "signed-out-session-000000")]);
    expect((await fromBrowsers(access)).error).toMatchObject({ code: "expired", message: EXPIRED });
    expect(await cached(access)).toBeNull();
    expect(access.cookieQueries).toHaveLength(1);
  });

  it("says what the browsers showed, and how to name another browser, when none has a session cookie", async () => {
    const access = browserDouble([{ browser: "chrome", profile: "Work", cookies: [storedCookie("theme", "dark", ".ollama.com")] }]);
    const usage = await fromBrowsers(access);
    expect(usage.error).toMatchObject({ code: "not_configured", message: "No Ollama session cookie found." });
    expect(usage.error?.hint).toContain("Browsers looked at: chrome (Work): none of its cookies is a session cookie");
    expect(usage.error?.hint).toContain('Set providers[ollama].browsers (e.g. ["firefox"]) in the config file.');
    expect(usage.error?.hint).toContain("Sign in at https://ollama.com/settings in your browser.");
    expect(sim.sim.requests).toEqual([]);
  });

  it("reads the browsers the entry names instead", async () => {
    const access = browserDouble([signedIn("firefox")]);
    expect((await withConfig({ browsers: ["firefox"] }, () => fromBrowsers(access))).ok).toBe(true);
    expect(access.cookieQueries.map((q) => q.browsers)).toEqual([["firefox"]]);
  });
});

describe("ollama settings page", () => {
  const bars = (body: string) => `<main><h2><span>Cloud Usage</span><span>pro</span></h2>${body}</main>`;

  it("reads bars written inline, each up to the next label", () => {
    const page = readSettingsPage(bars("<p>Session usage: 5% used, resets soon. Weekly usage: <b>61.5</b> % used</p>"));
    expect(page).toEqual({
      kind: "usage",
      reading: {
        badge: "pro",
        email: null,
        session: { usedPercent: 5, resetsAt: null, hourly: false },
        weekly: { usedPercent: 61.5, resetsAt: null },
      },
    });
  });

  it("takes the badge only from the span beside Cloud Usage", () => {
    const reading = (html: string) => (readSettingsPage(html) as { reading: { badge: string | null } }).reading;
    expect(reading("<h2><span>Cloud Usage</span> <span> max </span></h2><p>Weekly usage 1% used</p>").badge).toBe("max");
    expect(reading("<p>Your cloud usage</p><div>Learn more</div><p>Weekly usage 1% used</p>").badge).toBeNull();
  });

  it("names a label without a percentage, and tells a sign-in form from a page without usage", () => {
    expect(readSettingsPage(bars("<div>Session usage</div><div>Weekly usage</div>"))).toEqual({
      kind: "no-usage",
      labelsWithoutPercent: ["Session usage", "Weekly usage"],
    });
    const form = (inner: string) => readSettingsPage(`<h1>Welcome</h1><form>${inner}</form>`).kind;
    expect(form('<input type="email"><input type="password">')).toBe("signed-out");
    expect(form('<a href="/api/auth/signin/github">GitHub</a>')).toBe("signed-out");
    expect(form('<input name="q">')).toBe("no-usage");
    expect(readSettingsPage("<h1>Log in to Ollama</h1><form><input name='password'></form>").kind).toBe("signed-out");
    // a sign-in link on a page without a form (the site header of a signed-in page) is not a sign-in form
    expect(readSettingsPage('<a href="/signin">Sign in</a>').kind).toBe("no-usage");
  });

  it("refuses a page nested too deeply (parse) or too large (upstream) instead of reading part of it", () => {
    expect(() => readSettingsPage("<div>".repeat(MAX_HTML_DEPTH + 2))).toThrowError(expect.objectContaining({ code: "parse" }));
    expect(() => readSettingsPage(`<p>Session usage 5% used</p>${" ".repeat(3 * 1024 * 1024)}`)).toThrowError(
      expect.objectContaining({ code: "upstream" }),
    );
  });
});

describe("ollama policy", () => {
  it("normalises the badge to Free, Pro or Max, and keeps any other tier as written, capitalised", () => {
    expect(["free", "PRO", " Max ", "Pro plan", "pro max", "team", "", null].map(ollamaPlan)).toEqual([
      "Free",
      "Pro",
      "Max",
      "Pro",
      "Max",
      "Team",
      null,
      null,
    ]);
  });

  it("shows a weekly-only page with the weekly bar as the primary meter", () => {
    const snapshot = ollamaSnapshot({ badge: null, email: null, session: null, weekly: { usedPercent: 30, resetsAt: null } });
    expect(snapshot.primary).toMatchObject({ label: "Weekly", usedPercent: 30 });
    expect(snapshot.secondary).toBeNull();
  });
});
