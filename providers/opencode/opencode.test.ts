import { describe, expect, it } from "vitest";
import { useSimulator } from "../../test/helpers/harness.js";
import { browserDouble, storedCookie, usageWithBrowsers, type BrowserDouble } from "../../test/helpers/browser-double.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { opencodeSnapshot } from "./policy.js";
import { OPENCODE_TEST_SESSION, OPENCODE_WORKSPACES } from "./simulator.js";
import { billingOf } from "./billing.js";
import { subscriptionWindows } from "./subscription.js";
import { asWorkspaceId, firstWorkspaceId } from "./workspace.js";
import { jsLiterals } from "../kit/index.js";

const sim = useSimulator();
const LIST_ID = "def39973159c7f0483d8793a822b8dbb10d067e12c65455fcb4608459ba0234f";
const SUBSCRIPTION_ID = "7abeebee372f304e050aaaf92be863f4a86490e382f8c79db68fd94040d691b4";
const BILLING_ID = "c83b78a614689c38ebee981f9b39a8b377716db85c1fd7dbab604adc02d3313d";
/** The default workspace's billing: $23.75, auto-reload on. */
const BILLED = [
  { label: "Balance", value: "$23.75" },
  { label: "Auto-reload", value: "$20.00 when below $5.00" },
];
const INVALID = "OpenCode session cookie is invalid or expired.";

async function opencode(extra: Record<string, string | undefined> = {}, timeoutMs?: number) {
  const doc = await sim.quotabar(extra, timeoutMs).usage({ providers: ["opencode"] });
  return doc.providers[0]!;
}

async function withConfig<T>(entry: object, run: () => Promise<T>): Promise<T> {
  const cleanup = writeConfig(sim.home, { providers: [{ id: "opencode", ...entry }] });
  return run().finally(cleanup);
}

/** Each call but the billing one (asked beside the subscription, in either order) as `METHOD function-name args`. */
const calls = () =>
  sim.sim.requests
    .filter((r) => r.headers["x-server-id"] !== BILLING_ID)
    .map((r) => {
      const name =
        r.headers["x-server-id"] === LIST_ID ? "workspaces" : r.headers["x-server-id"] === SUBSCRIPTION_ID ? "subscription" : r.path;
      const args = r.method === "GET" ? (r.query.get("args") ?? "") : r.body;
      return `${r.method} ${name} ${args}`.trim();
    });
/** The billing calls, as the workspace each asked for. */
const billingCalls = () => sim.sim.requests.filter((r) => r.headers["x-server-id"] === BILLING_ID).map((r) => r.query.get("args"));

/** Seconds from now until an ISO time. */
const secondsUntil = (iso: string | null | undefined) => (Date.parse(iso ?? "") - Date.now()) / 1000;

describe("opencode against the simulator", () => {
  it("calls _server the real way: GET with id and args, X-Server-Id, a fresh X-Server-Instance, only the auth cookie", async () => {
    await opencode();
    expect(calls()).toEqual(["GET workspaces", `GET subscription ["${OPENCODE_WORKSPACES.listedFirst}"]`]);
    const [list, subscription] = sim.sim.requests as [(typeof sim.sim.requests)[0], (typeof sim.sim.requests)[0]];
    expect(list.path).toBe("/_server");
    expect([...list.query.keys()]).toEqual(["id"]);
    expect(list.query.get("id")).toBe(LIST_ID);
    expect(list.headers).toMatchObject({
      cookie: `__Host-auth=${OPENCODE_TEST_SESSION}`,
      "x-server-id": LIST_ID,
      origin: "https://opencode.ai",
      referer: "https://opencode.ai",
      accept: "text/javascript, application/json;q=0.9, */*;q=0.8",
    });
    expect(list.headers["content-type"]).toBeUndefined();
    expect(list.headers["user-agent"]).toMatch(/Chrome\/143\.0\.0\.0 Safari\/537\.36$/);
    expect(subscription.query.get("id")).toBe(SUBSCRIPTION_ID);
    expect(subscription.headers.referer).toBe(`https://opencode.ai/workspace/${OPENCODE_WORKSPACES.listedFirst}/billing`);
    const instances = [list, subscription].map((r) => String(r.headers["x-server-instance"]));
    for (const instance of instances) expect(instance).toMatch(/^server-fn:[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
    expect(instances[0]).not.toBe(instances[1]);
  });

  it("maps rollingUsage and weeklyUsage of the text/javascript answer: percents, resetInSec, the workspace", async () => {
    const usage = await opencode();
    expect(usage).toMatchObject({ ok: true, source: "web", plan: null, tertiary: null });
    expect(usage.primary).toMatchObject({ label: "5-hour", usedPercent: 17, windowMinutes: 300 });
    expect(usage.secondary).toMatchObject({ label: "Weekly", usedPercent: 75, windowMinutes: 10_080 });
    expect(secondsUntil(usage.primary?.resetsAt)).toBeGreaterThan(5_930);
    expect(secondsUntil(usage.primary?.resetsAt)).toBeLessThanOrEqual(5_944);
    expect(secondsUntil(usage.secondary?.resetsAt)).toBeGreaterThan(278_190);
    expect(usage.details).toEqual([{ label: "Workspace", value: OPENCODE_WORKSPACES.listedFirst }, ...BILLED]);
  });

  it("asks queryBillingInfo beside the subscription, once, with the workspace and its page as referer", async () => {
    await opencode();
    const billing = sim.sim.requests.filter((r) => r.headers["x-server-id"] === BILLING_ID);
    expect(billing).toHaveLength(1);
    expect(billing[0]).toMatchObject({ method: "GET", path: "/_server" });
    expect(billing[0]!.query.get("id")).toBe(BILLING_ID);
    expect(billing[0]!.query.get("args")).toBe(`["${OPENCODE_WORKSPACES.listedFirst}"]`);
    expect(billing[0]!.headers).toMatchObject({
      cookie: `__Host-auth=${OPENCODE_TEST_SESSION}`,
      referer: `https://opencode.ai/workspace/${OPENCODE_WORKSPACES.listedFirst}`,
    });
  });

  it("reads the Go subscription's monthly window as the third meter, with the month ending at its reset as the window", async () => {
    sim.sim.setScenario("opencode", "go");
    const usage = await opencode();
    expect(usage.primary).toMatchObject({ label: "5-hour", usedPercent: 22, windowMinutes: 300 });
    expect(usage.secondary).toMatchObject({ label: "Weekly", usedPercent: 43, windowMinutes: 10_080 });
    expect(usage.tertiary).toMatchObject({ label: "Monthly", usedPercent: 83 });
    expect(secondsUntil(usage.tertiary?.resetsAt)).toBeGreaterThan(1_569_590);
    expect(secondsUntil(usage.tertiary?.resetsAt)).toBeLessThanOrEqual(1_569_600);
    // 28 to 31 days: the calendar month before the reset
    expect([40_320, 41_760, 43_200, 44_640]).toContain(usage.tertiary?.windowMinutes);
  });

  it("shows a workspace without a subscription by its billing: the monthly limit as the meter, the balance in dollars", async () => {
    sim.sim.setScenario("opencode", "pay_as_you_go");
    const usage = await opencode();
    expect(usage).toMatchObject({ ok: true, secondary: null, tertiary: null });
    expect(usage.primary).toMatchObject({ label: "Monthly spend", used: 15, limit: 50, unit: "USD", usedPercent: 30, resetsAt: null });
    expect(usage.details).toEqual([
      { label: "Workspace", value: OPENCODE_WORKSPACES.listedFirst },
      { label: "Balance", value: "$23.75" },
      { label: "Auto-reload", value: "Off" },
    ]);
  });

  it("says an overspent balance is one", async () => {
    sim.sim.setScenario("opencode", "overspent");
    const usage = await opencode();
    expect(usage).toMatchObject({ ok: true, primary: null });
    expect(usage.details).toContainEqual({ label: "Balance", value: "-$3.13 (overspent)" });
  });

  it("shows the subscription without billing details when the billing call fails", async () => {
    sim.sim.setScenario("opencode", "billing_error");
    const usage = await opencode();
    expect(usage).toMatchObject({ ok: true, primary: { usedPercent: 17 }, secondary: { usedPercent: 75 } });
    expect(usage.details).toEqual([{ label: "Workspace", value: OPENCODE_WORKSPACES.listedFirst }]);
  });

  it("reads JSON answers too", async () => {
    sim.sim.setScenario("opencode", "json");
    const usage = await opencode();
    expect(usage).toMatchObject({ ok: true, primary: { usedPercent: 17 }, secondary: { usedPercent: 75 } });
    expect(usage.details).toEqual([{ label: "Workspace", value: OPENCODE_WORKSPACES.listedFirst }, ...BILLED]);
  });

  it("falls back to the spec's POST when a GET answer is of no use, for the list and the subscription", async () => {
    sim.sim.setScenario("opencode", "get_unusable");
    const usage = await opencode();
    expect(usage).toMatchObject({ ok: true, primary: { usedPercent: 17 } });
    const id = OPENCODE_WORKSPACES.listedFirst;
    expect(calls()).toEqual(["GET workspaces", "POST workspaces []", `GET subscription ["${id}"]`, `POST subscription ["${id}"]`]);
    const post = sim.sim.requests[1]!;
    expect([...post.query.keys()]).toEqual([]);
    expect(post.headers).toMatchObject({ "content-type": "application/json", "x-server-id": LIST_ID });
  });

  it("uses the config's workspaceID (an id, or a dashboard URL) without listing workspaces", async () => {
    for (const workspaceID of [OPENCODE_WORKSPACES.team, `https://opencode.ai/workspace/${OPENCODE_WORKSPACES.team}/billing`]) {
      sim.sim.requests.length = 0;
      const usage = await withConfig({ workspaceID }, () => opencode());
      expect(usage).toMatchObject({ ok: true, primary: { usedPercent: 92.5 }, secondary: { usedPercent: 40 } });
      // the team workspace answers no billing: nothing but its id
      expect(usage.details).toEqual([{ label: "Workspace", value: OPENCODE_WORKSPACES.team }]);
      expect(calls()).toEqual([`GET subscription ["${OPENCODE_WORKSPACES.team}"]`]);
      expect(billingCalls()).toEqual([`["${OPENCODE_WORKSPACES.team}"]`]);
    }
  });

  it("lists workspaces when the config's workspaceID holds no wrk_ id", async () => {
    const usage = await withConfig({ workspaceID: "my team" }, () => opencode());
    expect(usage.details).toEqual([{ label: "Workspace", value: OPENCODE_WORKSPACES.listedFirst }, ...BILLED]);
  });

  it("says the workspace has no subscription on a serialized null, without the POST, when it has no billing either", async () => {
    sim.sim.setScenario("opencode", "no_subscription");
    const usage = await opencode();
    expect(usage.error).toMatchObject({
      code: "not_configured",
      message: `No subscription usage data was returned for workspace ${OPENCODE_WORKSPACES.listedFirst}. This usually means this workspace does not have OpenCode subscription quota data available.`,
    });
    expect(usage.error?.hint).toContain("providers[opencode].workspaceID");
    expect(calls()).toHaveLength(2);
  });

  it("reports an account without workspaces as a parse error naming the workspace id", async () => {
    sim.sim.setScenario("opencode", "no_workspace");
    const usage = await opencode();
    expect(usage.error).toMatchObject({
      code: "parse",
      message: "OpenCode parse error: Missing workspace id (the account lists no workspace).",
    });
  });

  it("treats the public-actor error, a sign-in page and a 401 as an invalid session", async () => {
    for (const scenario of ["signed_out", "login_page", "expired"]) {
      sim.sim.setScenario("opencode", scenario);
      const usage = await opencode();
      expect(usage.error, scenario).toMatchObject({ code: "unauthorized", message: INVALID });
      expect(usage.error?.hint).toContain("https://opencode.ai");
    }
  });

  it("names the missing usage fields instead of showing 0 %", async () => {
    sim.sim.setScenario("opencode", "malformed");
    const usage = await opencode();
    expect(usage).toMatchObject({ ok: false, primary: null });
    expect(usage.error).toMatchObject({
      code: "parse",
      message: "OpenCode parse error: Missing usage fields (rollingUsage.usagePercent, weeklyUsage.usagePercent).",
    });
  });

  it("carries the server's own message on a failed POST", async () => {
    sim.sim.setScenario("opencode", "server_error");
    const usage = await opencode();
    expect(usage.error).toMatchObject({ code: "upstream", message: "OpenCode API error: HTTP 500: HTTPError" });
  });

  it("maps a server error to upstream, and a slow answer to the time budget", async () => {
    sim.sim.setScenario("opencode", "upstream_500");
    expect((await opencode()).error).toMatchObject({ code: "upstream", message: "OpenCode API error: HTTP 500" });
    sim.sim.setScenario("opencode", "slow");
    expect((await opencode({}, 300)).error?.code).toBe("timeout");
  });

  it("needs the auth cookie: none pasted, or a header without auth / __Host-auth, sends nothing", async () => {
    expect((await opencode({ OPENCODE_COOKIE: undefined })).error).toMatchObject({
      code: "not_configured",
      message: "No OpenCode session cookie found.",
    });
    expect((await opencode({ OPENCODE_COOKIE: "_ga=GA1.1.1; oc_session=abc" })).error?.message).toBe(
      "OpenCode cookie header is invalid: it has no auth or __Host-auth cookie.",
    );
    expect(sim.sim.requests).toEqual([]);
    const plain = await opencode({ OPENCODE_COOKIE: `auth=${OPENCODE_TEST_SESSION}` });
    expect(plain.error?.message).toBe(INVALID); // the simulator, like opencode.ai over https, wants __Host-auth
    expect(sim.sim.requests[0]!.headers.cookie).toBe(`auth=${OPENCODE_TEST_SESSION}`);
  });
});

describe("opencode keeps the listed workspace for the next run (one call instead of two)", () => {
  const FIRST = OPENCODE_WORKSPACES.listedFirst;
  const TEAM = OPENCODE_WORKSPACES.team;
  /** A refresh on the same HOME (the kept values live in its cache directory), its calls alone. */
  async function refresh(extra: Record<string, string | undefined> = {}) {
    sim.sim.requests.length = 0;
    const usage = await opencode(extra);
    return { usage, calls: calls() };
  }

  it("lists the workspace on the first refresh, and asks only its subscription on the next", async () => {
    const first = await refresh();
    expect(first.calls).toEqual(["GET workspaces", `GET subscription ["${FIRST}"]`]);
    const second = await refresh();
    expect(second.calls).toEqual([`GET subscription ["${FIRST}"]`]);
    expect(second.usage).toMatchObject({ ok: true, primary: { usedPercent: 17 }, secondary: { usedPercent: 75 } });
    expect(second.usage.details).toEqual(first.usage.details);
  });

  it("a kept workspace that is gone (no subscription now) is listed again once, and the new one kept", async () => {
    await refresh();
    sim.sim.setScenario("opencode", "workspace_moved");
    const moved = await refresh();
    expect(moved.calls).toEqual([`GET subscription ["${FIRST}"]`, "GET workspaces", `GET subscription ["${TEAM}"]`]);
    expect(moved.usage).toMatchObject({ ok: true, primary: { usedPercent: 92.5 }, secondary: { usedPercent: 40 } });
    expect(moved.usage.details).toEqual([{ label: "Workspace", value: TEAM }]);
    expect((await refresh()).calls).toEqual([`GET subscription ["${TEAM}"]`]);
  });

  it("a kept workspace the listing names again keeps its error, asked once", async () => {
    await refresh();
    sim.sim.setScenario("opencode", "no_subscription");
    const none = await refresh();
    expect(none.usage.error?.code).toBe("not_configured");
    expect(none.calls).toEqual([`GET subscription ["${FIRST}"]`, "GET workspaces"]);
    // nothing is kept for a workspace without usage
    expect((await refresh()).calls).toEqual(["GET workspaces", `GET subscription ["${FIRST}"]`]);
  });

  it("a signed-out session with a kept workspace stays an invalid session: nothing is listed", async () => {
    for (const scenario of ["signed_out", "expired"]) {
      sim.sim.setScenario("opencode", "ok");
      await refresh();
      sim.sim.setScenario("opencode", scenario);
      const refused = await refresh();
      expect(refused.usage.error, scenario).toMatchObject({ code: "unauthorized", message: INVALID });
      expect(refused.calls, scenario).toEqual([`GET subscription ["${FIRST}"]`]);
    }
  });

  it("never keeps the config's workspaceID", async () => {
    await withConfig({ workspaceID: TEAM }, () => refresh());
    expect((await refresh()).calls).toEqual(["GET workspaces", `GET subscription ["${FIRST}"]`]);
  });

  it("keeps the workspace for one cookie: another lists afresh", async () => {
    await refresh();
    const other = await refresh({ OPENCODE_COOKIE: "__Host-auth=Fe26.2**another-session-0000000000" });
    expect(other.calls[0]).toBe("GET workspaces");
    expect(other.usage.error?.message).toBe(INVALID);
  });

  it("reads back only a bounded wrk_ id", () => {
    expect(asWorkspaceId(FIRST)).toBe(FIRST);
    for (const value of [null, 42, { id: FIRST }, "wrk_../../x", `wrk_${"A".repeat(200)}`, ` ${FIRST}`]) {
      expect(asWorkspaceId(value)).toBeNull();
    }
  });
});

describe("opencode from the browsers (Chrome, cached)", () => {
  const signedIn = (value = OPENCODE_TEST_SESSION) => ({
    browser: "chrome",
    profile: "Default",
    cookies: [storedCookie("__Host-auth", value, "opencode.ai"), storedCookie("_ga", "GA1.1.918273645", ".opencode.ai")],
  });
  async function fromBrowsers(access: BrowserDouble) {
    const doc = await usageWithBrowsers(sim.env({ OPENCODE_COOKIE: undefined }), access).usage({ providers: ["opencode"] });
    return doc.providers[0]!;
  }

  it("reads Chrome only by default (Chromium after it on Linux), sends only the auth cookie, and caches it", async () => {
    const access = browserDouble([signedIn()]);
    expect(await fromBrowsers(access)).toMatchObject({ ok: true, source: "web" });
    expect(access.cookieQueries).toEqual([
      { hosts: ["opencode.ai", "app.opencode.ai"], browsers: process.platform === "linux" ? ["chrome", "chromium"] : ["chrome"] },
    ]);
    expect(sim.sim.requests.every((r) => r.headers.cookie === `__Host-auth=${OPENCODE_TEST_SESSION}`)).toBe(true);
    expect(JSON.parse((await access.secrets.get("quotabar", "cookie:opencode"))!).header).toBe(`__Host-auth=${OPENCODE_TEST_SESSION}`);
    await fromBrowsers(access);
    expect(access.cookieQueries).toHaveLength(1);
  });

  it("after an invalid session from the cache, clears it and imports once more, bypassing the cache", async () => {
    const access = browserDouble([signedIn()]);
    const stale = { header: "__Host-auth=Fe26.2**stale-session-00000000", storedAt: "2026-03-01T00:00:00Z", source: "chrome/Default" };
    await access.secrets.set("quotabar", "cookie:opencode", JSON.stringify(stale));
    expect((await fromBrowsers(access)).ok).toBe(true);
    expect(sim.sim.requests[0]!.headers.cookie).toBe(stale.header);
    expect(access.cookieQueries).toHaveLength(1);
  });

  it("says so when Chrome has no auth cookie, naming what it saw and how to choose another browser", async () => {
    const usage = await fromBrowsers(browserDouble([{ ...signedIn(), cookies: [storedCookie("_ga", "GA1.1.1", ".opencode.ai")] }]));
    expect(usage.error).toMatchObject({ code: "not_configured", message: "No OpenCode session cookie found." });
    expect(usage.error?.hint).toContain("chrome (Default): none of its cookies is a session cookie");
    expect(usage.error?.hint).toContain("providers[opencode].browsers");
  });
});

describe("opencode answers", () => {
  const windowsOf = (text: string) => subscriptionWindows(jsLiterals(text, "OpenCode"));

  it("accepts snake_case windows, used of a limit, and absolute reset times", () => {
    const windows = windowsOf(
      '{"data":{"rolling_usage":{"used":30,"limit":200,"reset_at":"2026-11-20T12:00:00Z"},"weekly_usage":{"usage_percent":"12.5","resetInSec":60}}}',
    );
    expect(windows).toEqual({
      rolling: { usedPercent: 15, resetInSec: null, resetAt: "2026-11-20T12:00:00.000Z" },
      weekly: { usedPercent: 12.5, resetInSec: 60, resetAt: null },
      monthly: null,
    });
  });

  it("never reads a negative or non-numeric percent as usage", () => {
    expect(windowsOf('x={rollingUsage:{usagePercent:-5,resetInSec:1},weeklyUsage:{usagePercent:"n/a"}}')).toEqual({
      missing: ["rollingUsage.usagePercent", "weeklyUsage.usagePercent"],
    });
  });

  it("finds the first workspace id: an object's id, else any wrk_ string", () => {
    expect(firstWorkspaceId(jsLiterals('[{name:"wrk_notanid!",id:"wrk_B2"},{id:"wrk_C3"}]', "OpenCode"))).toBe("wrk_B2");
    expect(firstWorkspaceId(jsLiterals('{"workspaces":["wrk_A1"]}', "OpenCode"))).toBe("wrk_A1");
    expect(firstWorkspaceId(jsLiterals('{"id":"wrk_../../x"}', "OpenCode"))).toBeNull();
  });

  it("maps resets from seconds at fetch time, or keeps the absolute time", () => {
    const now = new Date("2026-11-20T10:00:00Z");
    const snapshot = opencodeSnapshot(
      {
        workspaceId: "wrk_A1",
        windows: {
          rolling: { usedPercent: 120, resetInSec: 3600, resetAt: null },
          weekly: { usedPercent: 5, resetInSec: null, resetAt: "2026-11-25T00:00:00.000Z" },
          monthly: { usedPercent: 40, resetInSec: 86_400 * 3, resetAt: null },
        },
        billing: null,
      },
      now,
    );
    expect(snapshot.primary).toMatchObject({ usedPercent: 100, resetsAt: "2026-11-20T11:00:00.000Z" });
    expect(snapshot.secondary).toMatchObject({ usedPercent: 5, resetsAt: "2026-11-25T00:00:00.000Z" });
    // resetInSec is seconds from now: 3 days ahead, in the month from 23 October to 23 November
    expect(snapshot.tertiary).toMatchObject({ label: "Monthly", resetsAt: "2026-11-23T10:00:00.000Z", windowMinutes: 31 * 1_440 });
  });

  it("reads the billing's fixed-point dollars (1e-8), a limit in whole dollars, leaves out what is missing and refuses what is negative", () => {
    const read = (text: string) => billingOf(jsLiterals(text, "OpenCode"));
    expect(
      read("x={customerID:null,balance:2375000000,reload:!0,reloadAmount:20,reloadTrigger:5,monthlyLimit:null,monthlyUsage:null}"),
    ).toEqual({
      balance: 23.75,
      monthlyLimit: null,
      monthlyUsage: null,
      reload: { amount: 20, trigger: 5 },
    });
    // only the balance may be negative: overspent
    expect(read("x={balance:-100000000,reload:!1}")).toEqual({ balance: -1, monthlyLimit: null, monthlyUsage: null, reload: "off" });
    expect(() => read("x={balance:0,monthlyLimit:-5}")).toThrowError(
      "Failed to parse OpenCode response: monthlyLimit: must not be negative (got -5)",
    );
    expect(() => read("x={balance:0,reload:!0,reloadAmount:20,reloadTrigger:-5}")).toThrowError(/reloadTrigger: must not be negative/);
    // no billing object: a number named balance elsewhere is not one, and rolling windows never are
    expect(read("x={useBalance:!0,rollingUsage:{usagePercent:3,resetInSec:1}}")).toBeNull();
    expect(read("x={reload:!0,reloadAmount:20}")).toBeNull();
  });

  it("puts the monthly spend in the first free meter, and in the details when the Go windows take them all", () => {
    const now = new Date("2026-11-20T10:00:00Z");
    const window = { usedPercent: 10, resetInSec: 60, resetAt: null };
    const billing = { balance: 5, monthlyLimit: 20, monthlyUsage: 7.5, reload: null };
    const black = opencodeSnapshot({ workspaceId: "wrk_A1", windows: { rolling: window, weekly: window, monthly: null }, billing }, now);
    expect(black.tertiary).toMatchObject({ label: "Monthly spend", used: 7.5, limit: 20, usedPercent: 37.5 });
    expect(black.details.map((d) => d.label)).toEqual(["Workspace", "Balance"]);
    const go = opencodeSnapshot({ workspaceId: "wrk_A1", windows: { rolling: window, weekly: window, monthly: window }, billing }, now);
    expect(go.tertiary?.label).toBe("Monthly");
    expect(go.details).toContainEqual({ label: "Monthly limit", value: "$7.50 of $20.00" });
  });
});
