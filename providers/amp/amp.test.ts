import { describe, expect, it } from "vitest";
import { useSimulator } from "../../test/helpers/harness.js";
import { browserDouble, storedCookie, usageWithBrowsers, type BrowserDouble } from "../../test/helpers/browser-double.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { ampSnapshot } from "./policy.js";
import { readSettingsPage } from "./settings-page.js";
import { AMP_TEST_SESSION } from "./simulator.js";
import { DEFAULT_BROWSER_ORDER } from "../kit/index.js";

const sim = useSimulator();
const EXPIRED = "Amp session cookie expired. Please log in again.";

async function amp(extra: Record<string, string | undefined> = {}, timeoutMs?: number) {
  const doc = await sim.quotabar(extra, timeoutMs).usage({ providers: ["amp"] });
  return doc.providers[0]!;
}

/** Hours from now until an ISO time. */
const hoursUntil = (iso: string | null | undefined) => (Date.parse(iso ?? "") - Date.now()) / 3_600_000;

describe("amp against the simulator", () => {
  it("asks for /settings as Chrome does, sending the session cookie and nothing else", async () => {
    await amp();
    const request = sim.sim.requests[0]!;
    expect(request).toMatchObject({ method: "GET", path: "/settings", origin: "https://ampcode.com" });
    expect(request.headers).toMatchObject({
      cookie: `session=${AMP_TEST_SESSION}`,
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      "accept-language": "en-US,en;q=0.9",
      origin: "https://ampcode.com",
      referer: "https://ampcode.com/settings",
    });
    expect(request.headers["user-agent"]).toMatch(/Chrome\/143\.0\.0\.0 Safari\/537\.36$/);
  });

  it("maps the JS-literal freeTierUsage: daily usage, the replenishment rate, time to full", async () => {
    const usage = await amp();
    expect(usage).toMatchObject({ ok: true, source: "web", plan: "Amp Free", tertiary: null, details: [] });
    expect(usage.primary).toMatchObject({ label: "Amp Free", usedPercent: 26.25, used: 262.5, limit: 1000, windowMinutes: 1440 });
    // 262.5 used, 41.67 back every hour: full again in about 6 h 18 min
    expect(hoursUntil(usage.primary?.resetsAt)).toBeGreaterThan(6.29);
    expect(hoursUntil(usage.primary?.resetsAt)).toBeLessThanOrEqual(6.3);
    expect(usage.secondary).toMatchObject({ label: "Replenishment", usedPercent: null, note: "Replenishes 41.67/hour", resetsAt: null });
  });

  it("reads the prefetched getFreeTierUsage key: nothing used is full now", async () => {
    sim.sim.setScenario("amp", "prefetched");
    const usage = await amp();
    expect(usage.primary).toMatchObject({ usedPercent: 0, used: 0, limit: 1000 });
    expect(Math.abs(hoursUntil(usage.primary?.resetsAt))).toBeLessThan(0.01);
  });

  it("reads the JSON form, with more used than the quota shown as 100 % and full in 15 hours", async () => {
    sim.sim.setScenario("amp", "json_form");
    const usage = await amp();
    expect(usage.primary).toMatchObject({ usedPercent: 100, used: 150, limit: 100 });
    expect(hoursUntil(usage.primary?.resetsAt)).toBeGreaterThan(14.99);
    expect(usage.secondary?.note).toBe("Replenishes 10/hour");
  });

  it("names a missing figure instead of guessing it", async () => {
    sim.sim.setScenario("amp", "missing_rate");
    const usage = await amp();
    expect(usage).toMatchObject({ ok: false, primary: null });
    expect(usage.error).toMatchObject({
      code: "parse",
      message: "Could not parse Amp usage: freeTierUsage.hourlyReplenishment is missing.",
    });
  });

  it("reports a signed-in page without freeTierUsage as a parse error, even when its scripts mention login", async () => {
    sim.sim.setScenario("amp", "malformed");
    const usage = await amp();
    expect(usage.error).toMatchObject({
      code: "parse",
      message: "Could not parse Amp usage: the settings page has no freeTierUsage data.",
    });
  });

  it("says the session cookie expired when ampcode.com redirects to its sign-in page, or answers 401", async () => {
    sim.sim.setScenario("amp", "expired");
    const usage = await amp();
    expect(usage.error).toMatchObject({ code: "expired", message: EXPIRED });
    expect(usage.error?.hint).toContain("https://ampcode.com/settings");
    expect(sim.sim.requests.map((r) => `${r.path}?${r.query}`)).toEqual(["/settings?", "/auth/sign-in?returnTo=%2Fsettings"]);
    sim.sim.setScenario("amp", "unauthorized");
    expect((await amp()).error).toMatchObject({ code: "expired", message: EXPIRED });
  });

  it("says not logged in when the page is a sign-in page", async () => {
    sim.sim.setScenario("amp", "signed_out");
    expect((await amp()).error).toMatchObject({
      code: "unauthorized",
      message: "Not logged in to Amp: ampcode.com answered with its sign-in page.",
    });
  });

  it("needs a session cookie: none pasted, or a header without one, is not configured and sends nothing", async () => {
    expect((await amp({ AMP_COOKIE: undefined })).error).toMatchObject({ code: "not_configured", message: "No Amp session cookie found." });
    const other = await amp({ AMP_COOKIE: "_session=legacy-value-123; ajs_anonymous_id=x" });
    expect(other.error).toMatchObject({
      code: "not_configured",
      message: "No Amp session cookie found: the cookie header has no session cookie.",
    });
    expect(other.error?.hint).toContain("providers[amp].cookieHeader");
    expect(sim.sim.requests).toEqual([]);
  });

  it("takes the config's cookie header first", async () => {
    const cleanup = writeConfig(sim.home, { providers: [{ id: "amp", cookieHeader: `Cookie: session=${AMP_TEST_SESSION}; theme=dark` }] });
    const usage = await amp({ AMP_COOKIE: "session=wrong-value-000" }).finally(cleanup);
    expect(usage.ok).toBe(true);
    expect(sim.sim.requests[0]!.headers.cookie).toBe(`session=${AMP_TEST_SESSION}`);
  });

  it("maps a server error to upstream, and a slow page to the time budget", async () => {
    sim.sim.setScenario("amp", "upstream_500");
    expect((await amp()).error).toMatchObject({ code: "upstream", message: "Amp API error: HTTP 500" });
    sim.sim.setScenario("amp", "slow");
    expect((await amp({}, 300)).error?.code).toBe("timeout");
  });
});

describe("amp from the browsers (cookie source auto)", () => {
  const profile = (browser: string, value: string) => ({
    browser,
    profile: "Default",
    cookies: [storedCookie("session", value, "ampcode.com"), storedCookie("ajs_anonymous_id", "amp-sim-anonymous-42", ".ampcode.com")],
  });
  async function fromBrowsers(access: BrowserDouble) {
    const doc = await usageWithBrowsers(sim.env({ AMP_COOKIE: undefined }), access).usage({ providers: ["amp"] });
    return doc.providers[0]!;
  }

  it("takes the first browser in the default order with a session cookie, and sends only that cookie", async () => {
    const access = browserDouble([profile("firefox", "firefox-session-000000"), profile("chrome", AMP_TEST_SESSION)]);
    expect(await fromBrowsers(access)).toMatchObject({ ok: true, source: "web" });
    expect(access.cookieQueries).toEqual([{ hosts: ["ampcode.com", "www.ampcode.com"], browsers: DEFAULT_BROWSER_ORDER }]);
    expect(DEFAULT_BROWSER_ORDER.slice(0, 2)).toEqual(["safari", "chrome"]);
    expect(sim.sim.requests[0]!.headers.cookie).toBe(`session=${AMP_TEST_SESSION}`);
    expect(JSON.parse((await access.secrets.get("quotabar", "cookie:amp"))!).source).toBe("chrome/Default");
  });

  it("retries a refused cached session with the browsers' cookies in the same run", async () => {
    const access = browserDouble([profile("firefox", AMP_TEST_SESSION)]);
    await access.secrets.set(
      "quotabar",
      "cookie:amp",
      JSON.stringify({ header: "session=amp-stale-000000", storedAt: "x", source: "chrome/Default" }),
    );
    expect((await fromBrowsers(access)).ok).toBe(true);
    expect(sim.sim.requests.map((r) => r.headers.cookie ?? "")).toContain(`session=${AMP_TEST_SESSION}`);
  });

  it("says which browsers were looked at when none is signed in", async () => {
    const usage = await fromBrowsers(browserDouble([]));
    expect(usage.error).toMatchObject({ code: "not_configured", message: "No Amp session cookie found." });
    expect(usage.error?.hint).toContain("Browsers looked at: not installed here: safari, chrome, edge, brave, arc, dia, atlas, chromium");
    expect(sim.sim.requests).toEqual([]);
  });
});

describe("amp settings page", () => {
  const page = (script: string) => readSettingsPage(`<html><body><main>Settings</main><script>${script}</script></body></html>`);

  it("accepts figures as numeric text, and no windowHours", () => {
    expect(page('x = {freeTierUsage:{quota:"1000",used:"10",hourlyReplenishment:"42"}}')).toEqual({
      kind: "usage",
      tier: { quota: 1000, used: 10, hourlyReplenishment: 42, windowHours: null },
    });
  });

  it("refuses a negative or non-numeric figure, naming it", () => {
    expect(() => page("x = {freeTierUsage:{quota:1000,used:-5,hourlyReplenishment:42}}")).toThrowError(
      "Could not parse Amp usage: freeTierUsage.used is not a non-negative number.",
    );
    expect(() => page('x = {freeTierUsage:{quota:"lots",used:5,hourlyReplenishment:42}}')).toThrowError(/freeTierUsage\.quota/);
  });

  it("passes over a freeTierUsage that is not an object, to the prefetched key", () => {
    const prefetched = page('a = {freeTierUsage:null}; b = {"h/getFreeTierUsage/":{quota:10,used:5,hourlyReplenishment:1}}');
    expect(prefetched).toMatchObject({ kind: "usage", tier: { quota: 10, used: 5 } });
  });
});

describe("amp policy", () => {
  const now = new Date("2026-11-20T10:00:00Z");

  it("has no time to full without replenishment, and no ratio of a zero quota", () => {
    const still = ampSnapshot({ quota: 1000, used: 500, hourlyReplenishment: 0, windowHours: null }, now);
    expect(still.primary).toMatchObject({ usedPercent: 50, resetsAt: null, windowMinutes: null });
    expect(still.secondary?.note).toBe("Replenishes 0/hour");
    expect(ampSnapshot({ quota: 0, used: 0, hourlyReplenishment: 5, windowHours: 24 }, now).primary).toMatchObject({
      usedPercent: null,
      resetsAt: null,
    });
  });

  it("computes time to full from the hourly rate, past the window when more than a day is used", () => {
    const snapshot = ampSnapshot({ quota: 1000, used: 1000, hourlyReplenishment: 20, windowHours: 24 }, now);
    expect(snapshot.primary?.resetsAt).toBe("2026-11-22T12:00:00.000Z");
  });
});
