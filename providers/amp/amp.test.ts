import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { QuotabarError } from "../../domain/errors.js";
import { useSimulator } from "../../test/helpers/harness.js";
import { browserDouble, storedCookie, usageWithBrowsers, type BrowserDouble } from "../../test/helpers/browser-double.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { ampSnapshot } from "./policy.js";
import { readBalanceText } from "./balance-text.js";
import { ampSecretsFile } from "./cli-key.js";
import { ampBalanceSnapshot } from "./policy-balance.js";
import { readSettingsPage } from "./settings-page.js";
import { AMP_TEST_API_KEY, AMP_TEST_SESSION, seedAmpHome } from "./simulator.js";
import { DEFAULT_BROWSER_ORDER } from "../kit/index.js";

const sim = useSimulator();
const EXPIRED = "Amp session cookie expired. Please log in again.";

async function amp(extra: Record<string, string | undefined> = {}, timeoutMs?: number, source?: string) {
  const doc = await sim.quotabar(extra, timeoutMs).usage({ providers: ["amp"], ...(source ? { source } : {}) });
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
    const none = await amp({ AMP_COOKIE: undefined });
    expect(none.error).toMatchObject({ code: "not_configured", message: "No Amp session cookie found." });
    // auto mode looked for the Amp CLI's key too, and says how to get one
    expect(none.error?.hint).toContain("amp login");
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

describe("amp with the Amp CLI's API key (no browser)", () => {
  const home = () => sim.home;
  const withKey = async (scenario: string) => {
    sim.sim.setScenario("amp", scenario);
    await seedAmpHome(home(), scenario);
  };
  afterEach(() => rmSync(join(home(), ".local"), { recursive: true, force: true }));

  it("asks userDisplayBalanceInfo as JSON-RPC with the key as a bearer token, and nothing else", async () => {
    await withKey("ok");
    const usage = await amp();
    expect(usage).toMatchObject({ ok: true, source: "cli", plan: "Amp Free", error: null });
    expect(sim.sim.requests).toHaveLength(1);
    const request = sim.sim.requests[0]!;
    expect(request).toMatchObject({ method: "POST", path: "/api/internal", origin: "https://ampcode.com" });
    expect(request.query.has("userDisplayBalanceInfo")).toBe(true);
    expect(request.headers).toMatchObject({ authorization: `Bearer ${AMP_TEST_API_KEY}`, "content-type": "application/json" });
    expect(request.headers.cookie).toBeUndefined();
    expect(JSON.parse(request.body)).toEqual({ method: "userDisplayBalanceInfo", params: {} });
  });

  it("shows $1.66 of $20 left as $18.34 used, full again in 18.34 / 0.83 hours, in a window of 24 hours", async () => {
    await withKey("ok");
    const usage = await amp();
    expect(usage.primary).toMatchObject({ label: "Amp Free", used: 18.34, limit: 20, unit: "USD", usedPercent: 91.7, windowMinutes: 1440 });
    const hours = 18.34 / 0.83;
    expect(hoursUntil(usage.primary?.resetsAt)).toBeGreaterThan(hours - 0.01);
    expect(hoursUntil(usage.primary?.resetsAt)).toBeLessThanOrEqual(hours);
    expect(usage.secondary).toMatchObject({ label: "Replenishment", usedPercent: null, note: "Replenishes $0.83/hour" });
    expect(usage.details).toEqual([{ label: "Individual credits", value: "$17.23" }]);
  });

  it("reads comma amounts, a bonus and a workspace, and clamps a remaining above the total to nothing used", async () => {
    await withKey("cli_bonus");
    const usage = await amp();
    expect(usage.primary).toMatchObject({ used: 0, limit: 10, usedPercent: 0, windowMinutes: 1440 });
    expect(Math.abs(hoursUntil(usage.primary?.resetsAt))).toBeLessThan(0.01);
    expect(usage.details).toEqual([
      { label: "Bonus", value: "+20% for 5 more days" },
      { label: "Individual credits", value: "$1,234.50" },
      { label: "Workspace Northwind Robotics", value: "$2,048.00" },
    ]);
  });

  it("shows a credits-only account by its balance, without a bar or a plan", async () => {
    await withKey("cli_credits");
    expect(await amp()).toMatchObject({
      ok: true,
      source: "cli",
      plan: null,
      primary: null,
      secondary: null,
      details: [{ label: "Individual credits", value: "$20.95" }],
    });
  });

  it("reads the daily percent form, passing over a subscription line it does not show", async () => {
    await withKey("cli_daily");
    const usage = await amp();
    expect(usage.primary).toMatchObject({ label: "Amp Free", usedPercent: 39, resetsAt: null, windowMinutes: 1440, note: "Resets daily" });
    expect(usage.details).toEqual([{ label: "Individual credits", value: "$4.19" }]);
  });

  it("names the shape a changed Amp Free line missed; in auto mode the settings page answers instead", async () => {
    await withKey("cli_changed");
    const onlyCli = await amp({}, undefined, "cli");
    expect(onlyCli.error).toMatchObject({
      code: "parse",
      message:
        'Could not parse Amp balance: the Amp Free line is not "Amp Free: $<remaining>/$<total> remaining (replenishes +$<rate>/hour)" or "Amp Free: <percent>% remaining today".',
    });
    expect(onlyCli.primary).toBeNull();
    expect(await amp()).toMatchObject({ ok: true, source: "web", plan: "Amp Free" });
  });

  it("hands a refused key over to the settings page in auto mode; with --source cli it says to run amp login", async () => {
    await withKey("cli_refused");
    expect(await amp()).toMatchObject({ ok: true, source: "web" });
    expect(sim.sim.requests.map((r) => r.path)).toEqual(["/api/internal", "/settings"]);
    const refused = await amp({}, undefined, "cli");
    expect(refused.error).toMatchObject({
      code: "unauthorized",
      message: "Amp refused the Amp CLI's API key: sign in again with `amp login`.",
    });
    expect(refused.error?.hint).toContain("amp login");
  });

  it("a key ampcode.com does not know is refused (401) the same way", async () => {
    await withKey("ok");
    writeFileSync(ampSecretsFile({ HOME: home() }), JSON.stringify({ "apiKey@https://ampcode.com/": "sgamp_user_revoked_000000000000" }));
    expect((await amp({}, undefined, "cli")).error).toMatchObject({ code: "unauthorized" });
  });

  it.each(["echo_headers", "echo_headers_ok", "ok"])("never shows the key, whatever is echoed back (%s)", async (scenario) => {
    await withKey("ok");
    sim.sim.setScenario("amp", scenario);
    const usage = await amp({}, undefined, "cli");
    expect(JSON.stringify(usage)).not.toContain(AMP_TEST_API_KEY);
  });

  it("reads the key without the trailing slash, and under $XDG_DATA_HOME", async () => {
    const xdg = join(home(), ".local", "xdg");
    mkdirSync(join(xdg, "amp"), { recursive: true });
    writeFileSync(join(xdg, "amp", "secrets.json"), JSON.stringify({ "apiKey@https://ampcode.com": AMP_TEST_API_KEY }));
    expect(await amp({ XDG_DATA_HOME: xdg })).toMatchObject({ ok: true, source: "cli" });
  });

  it("passes over a secrets file that is not JSON, or holds no key, to the settings page", async () => {
    const file = ampSecretsFile({ HOME: home() });
    mkdirSync(join(file, ".."), { recursive: true });
    for (const text of ["{not json", JSON.stringify({ "apiKey@https://example.com/": "x" })]) {
      writeFileSync(file, text);
      expect(await amp()).toMatchObject({ ok: true, source: "web" });
    }
  });

  it("with --source cli and no key, says where it looked", async () => {
    const usage = await amp({}, undefined, "cli");
    expect(usage.error).toMatchObject({
      code: "not_configured",
      message: `No Amp CLI API key found in ${join(home(), ".local", "share", "amp", "secrets.json")}.`,
    });
    expect(usage.error?.hint).toContain("amp login");
    expect(sim.sim.requests).toEqual([]);
  });
});

describe("amp balance text", () => {
  const line = (text: string) => readBalanceText(text);

  it("reads grouped amounts, a bonus with or without brackets, and a trailing link", () => {
    expect(
      line("Amp Free: $1,234.50/$2,000 remaining (replenishes +$1,000/hour) +5% bonus for 1 more day - https://ampcode.com/x"),
    ).toEqual({
      free: { kind: "dollars", remaining: 1234.5, total: 2000, hourly: 1000 },
      bonus: { percent: 5, days: 1 },
      credits: null,
      workspaces: [],
    });
    const overspent = line("Individual credits: $0 remaining\nWorkspace Acme: -$3.20 remaining (top up soon)");
    expect(overspent).toMatchObject({ credits: 0, workspaces: [{ name: "Acme", remaining: -3.2 }] });
  });

  it("refuses a line that starts like a known one but has another shape, naming the shape", () => {
    const cases: [string, RegExp][] = [
      ["Amp Free: $1.66 remaining", /the Amp Free line is not "Amp Free: \$<remaining>\/\$<total> remaining/],
      ["Amp Free: $1,23.50/$20 remaining (replenishes +$0.83/hour)", /the Amp Free line/],
      ["Amp Free: $1.66/$20 remaining (replenishes +$0.83/day)", /the Amp Free line/],
      ["Individual credits: 20 USD remaining", /the Individual credits line is not "Individual credits: \$<amount> remaining"/],
      ["Workspace : $5 remaining", /the Workspace line is not "Workspace <name>: \$<amount> remaining"/],
      ["Signed in as riley@example.org", /has no "Amp Free: .* line, nor "Individual credits: \$<amount> remaining"/],
      [`Individual credits: $${"9".repeat(500)} remaining`, /longer than 400 characters/],
    ];
    for (const [text, message] of cases) {
      const error = (() => {
        try {
          line(text);
        } catch (thrown) {
          return thrown;
        }
        return null;
      })();
      expect(error, text).toBeInstanceOf(QuotabarError);
      expect((error as QuotabarError).code).toBe("parse");
      expect((error as QuotabarError).message).toMatch(message);
    }
  });
});

describe("amp balance policy", () => {
  const now = new Date("2026-11-20T10:00:00Z");
  const free = (remaining: number, total: number, hourly: number) =>
    ampBalanceSnapshot({ free: { kind: "dollars", remaining, total, hourly }, bonus: null, credits: null, workspaces: [] }, now);

  it("has no reset and no window without replenishment, and a window of at least an hour", () => {
    expect(free(5, 10, 0).primary).toMatchObject({ used: 5, usedPercent: 50, resetsAt: null, windowMinutes: null });
    expect(free(0, 1, 5).primary).toMatchObject({ windowMinutes: 60, resetsAt: "2026-11-20T10:12:00.000Z" });
  });

  it("clamps a percent form above 100 % remaining to nothing used", () => {
    const snapshot = ampBalanceSnapshot(
      { free: { kind: "percent", remainingPercent: 120 }, bonus: null, credits: null, workspaces: [] },
      now,
    );
    expect(snapshot.primary?.usedPercent).toBe(0);
  });
});
