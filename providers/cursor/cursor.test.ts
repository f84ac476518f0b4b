import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cursorStateDir, writeCursorState } from "../../test/helpers/cursor-state.js";
import { useSimulator } from "../../test/helpers/harness.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { sessionCookieOfToken, userIdOfSubject } from "./app-sign-in.js";
import { cursorPlan, cursorSnapshot, headlinePercent, type CursorReading } from "./policy.js";
import type { SimRequest, SimRoute, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { ProviderSimulator } from "../../simulator/server.js";
import { CURSOR_SIM, CURSOR_TEST_COOKIE, cursorUpstream } from "./simulator.js";
import { readSummary, requestAllowance } from "./wire.js";

const sim = useSimulator();
const fixture = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", name), "utf8")) as Record<string, unknown>;
const reading = (name: string, extra: Partial<CursorReading> = {}): CursorReading => ({
  ...readSummary(fixture(name)),
  requests: null,
  email: null,
  ...extra,
});
const APP_COOKIE = `WorkosCursorSessionToken=${CURSOR_SIM.userId}%3A%3A${CURSOR_SIM.appToken}`;

async function cursor(extra: Record<string, string | undefined> = {}, timeoutMs?: number) {
  const doc = await sim.quotabar(extra, timeoutMs).usage({ providers: ["cursor"] });
  return doc.providers[0]!;
}

describe("cursor policy (the reference's payloads)", () => {
  it("keeps fractional percents as percents: Pro's 0.44 % Total, 0.36 % Auto + Composer, 0.71 % API over a 31-day cycle", () => {
    const snapshot = cursorSnapshot(reading("usage-summary-pro.json"));
    const cycle = { resetsAt: "2026-04-18T20:45:42.000Z", windowMinutes: 44_640 };
    expect(snapshot.plan).toBe("Pro");
    // the percent is the dashboard's own: the plan's cents (86 of 2,000) are another measure, a detail
    expect(snapshot.primary).toMatchObject({ label: "Total", usedPercent: 0.44, used: null, limit: null, unit: null, ...cycle });
    expect(snapshot.secondary).toMatchObject({ label: "Auto + Composer", usedPercent: 0.36, ...cycle });
    expect(snapshot.tertiary).toMatchObject({ label: "API", usedPercent: 0.71, ...cycle });
    expect(snapshot.details).toEqual([{ label: "Included usage", value: "$0.86 of $20.00" }]);
  });

  it("shows a free account's numbers (0 %, a 28-day cycle), not an error and no spend", () => {
    const snapshot = cursorSnapshot(reading("usage-summary-free.json", { email: "user@example.com" }));
    expect(snapshot).toMatchObject({ plan: "Free", primary: { usedPercent: 0, used: null, limit: null, windowMinutes: 40_320 } });
    expect(snapshot.secondary?.usedPercent).toBe(0);
    expect(snapshot.details).toEqual([{ label: "Account", value: "user@example.com" }]);
  });

  it("takes an Enterprise member's Total from the personal cap (73.84 %, $73.84 of $100) and shows the team pool", () => {
    const snapshot = cursorSnapshot(reading("usage-summary-enterprise.json"));
    expect(snapshot).toMatchObject({ plan: "Enterprise", secondary: null, tertiary: null });
    expect(snapshot.primary).toMatchObject({ usedPercent: 73.84, used: 73.84, limit: 100, windowMinutes: 43_200 });
    expect(snapshot.details).toEqual([{ label: "Team pool", value: "$127,251.35 of $281,220.00" }]);
  });

  it("shows Ultra's used-up plan and its on-demand spend in dollars", () => {
    const snapshot = cursorSnapshot(reading("usage-summary-ultra.json"));
    expect(snapshot).toMatchObject({ plan: "Ultra", primary: { usedPercent: 81.25, used: null }, tertiary: { usedPercent: 100 } });
    expect(snapshot.details).toEqual([
      { label: "Included usage", value: "$400.00 of $400.00" },
      { label: "On-demand", value: "$18.75 of $50.00" },
    ]);
  });

  it("shows the team's on-demand budget and the user's share when there is no personal budget", () => {
    const base = reading("usage-summary-team-requests.json");
    const teamOnly = { ...base, onDemand: { enabled: true, used: 4471, limit: null } };
    expect(cursorSnapshot(teamOnly).details).toEqual([
      { label: "Team on-demand", value: "$750.00 of $6,000.00" },
      { label: "Your on-demand spend", value: "$44.71" },
    ]);
    expect(cursorSnapshot(base).details).toEqual([{ label: "On-demand", value: "$0.00 of $250.00" }]);
  });

  it("on a request-based plan, shows requests used of the allowance alone", () => {
    const requests = requestAllowance(fixture("usage-requests.json"));
    expect(requests).toEqual({ used: 422, limit: 500 });
    const snapshot = cursorSnapshot(reading("usage-summary-team-requests.json", { requests }));
    expect(snapshot.primary).toMatchObject({ label: "Requests", usedPercent: 84.4, used: 422, limit: 500, unit: "requests" });
    expect(snapshot).toMatchObject({ secondary: null, tertiary: null });
    expect(requestAllowance(fixture("usage-token-plan.json"))).toBeNull();
    expect(requestAllowance({ "gpt-4": { numRequests: 200, numRequestsTotal: 240, maxRequestUsage: 500 } })).toEqual({
      used: 240,
      limit: 500,
    });
    expect(requestAllowance({ "gpt-4": { numRequests: 3, maxRequestUsage: 0 } })).toBeNull();
  });

  it("carries the dollars on the Total when they are what it is made of (a plan without percents)", () => {
    const plan = { used: 500, limit: 2000, autoPercentUsed: null, apiPercentUsed: null, totalPercentUsed: null };
    const snapshot = cursorSnapshot({ ...reading("usage-summary-free.json"), plan });
    expect(snapshot.primary).toMatchObject({ usedPercent: 25, used: 5, limit: 20, unit: "USD" });
    expect(snapshot.details).toEqual([]);
  });

  it("finds the headline Total by the reference's precedence", () => {
    const plan = { used: null, limit: null, autoPercentUsed: null, apiPercentUsed: null, totalPercentUsed: null };
    const base = reading("usage-summary-free.json", { plan: null });
    expect(headlinePercent({ ...base, plan: { ...plan, autoPercentUsed: 10, apiPercentUsed: 30 } })).toBe(20);
    expect(headlinePercent({ ...base, plan: { ...plan, apiPercentUsed: 30 } })).toBe(30);
    expect(headlinePercent({ ...base, plan: { ...plan, autoPercentUsed: 12 } })).toBe(12);
    expect(headlinePercent({ ...base, plan: { ...plan, used: 500, limit: 2000 } })).toBe(25);
    const pooled = { enabled: true, used: 50, limit: 200 };
    expect(headlinePercent({ ...base, pooled })).toBe(25);
    expect(headlinePercent({ ...base, overall: { enabled: true, used: 10, limit: 100 }, pooled })).toBe(10);
    expect(headlinePercent(base)).toBe(0);
  });

  it("names the plans as the dashboard does, and shows an unknown one as sent", () => {
    const names = ["free", "pro", "pro_student", "PRO_PLUS", "ultra", "team", "enterprise", "free_trial", "Custom_Plan"].map(cursorPlan);
    expect(names).toEqual(["Free", "Pro", "Pro", "Pro+", "Ultra", "Team", "Enterprise", "Pro Trial", "Custom_Plan"]);
    expect(cursorPlan(null)).toBeNull();
  });
});

describe("cursor against the simulator (a pasted cookie)", () => {
  it("asks for the usage summary, the user and the allowance with the whole cookie header", async () => {
    const usage = await cursor();
    expect(usage).toMatchObject({ ok: true, source: "web", plan: "Pro", primary: { label: "Total", usedPercent: 0.44 } });
    expect(usage.details).toEqual([
      { label: "Account", value: "dev@company.example" },
      { label: "Included usage", value: "$0.86 of $20.00" },
    ]);
    const paths = sim.sim.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths.slice(0, 2).sort()).toEqual(["GET /api/auth/me", "GET /api/usage-summary"]);
    expect(paths[2]).toBe("GET /api/usage");
    expect(sim.sim.requests[2]!.query.get("user")).toBe(CURSOR_SIM.subject);
    for (const request of sim.sim.requests)
      expect(request.headers).toMatchObject({ cookie: CURSOR_TEST_COOKIE, accept: "application/json" });
  });

  it("reads a request-based plan's allowance, and without /api/auth/me asks with the cookie's user id", async () => {
    sim.sim.setScenario("cursor", "request_plan");
    expect((await cursor()).primary).toMatchObject({ label: "Requests", used: 422, limit: 500 });
    sim.sim.requests.length = 0;
    // a first run: the user the run above kept would stand in for /api/auth/me's (tested below)
    rmSync(join(sim.home, ".cache"), { recursive: true, force: true });
    sim.sim.setScenario("cursor", "enterprise_on_demand");
    const usage = await cursor();
    expect(usage).toMatchObject({ ok: true, primary: { label: "Total", usedPercent: 6.25 } });
    // the account from the session cookie's token, as /api/auth/me failed
    expect(usage.details).toEqual([
      { label: "Account", value: "dev@company.example" },
      { label: "On-demand", value: "$0.00 of $250.00" },
    ]);
    expect(sim.sim.requests.find((r) => r.path === "/api/usage")?.query.get("user")).toBe(CURSOR_SIM.userId);
  });

  it.each(["signed_out", "forbidden"])("%s: says signed out, with how to sign in", async (scenario) => {
    sim.sim.setScenario("cursor", scenario);
    const usage = await cursor();
    expect(usage).toMatchObject({ ok: false, primary: null });
    expect(usage.error).toMatchObject({ code: "unauthorized", message: "Not signed in to Cursor: cursor.com refused the session." });
    expect(usage.error?.hint).toContain("https://cursor.com/dashboard?tab=usage");
    expect(usage.error?.hint).toContain("Cursor app");
  });

  it("reports a page in place of JSON, and a negative count, as parse errors naming what was wrong", async () => {
    sim.sim.setScenario("cursor", "malformed");
    expect((await cursor()).error).toMatchObject({ code: "parse", message: "Failed to parse Cursor response: the body is not JSON" });
    sim.sim.setScenario("cursor", "negative_count");
    expect((await cursor()).error?.message).toBe(
      "Failed to parse Cursor response: individualUsage.plan.used: must not be negative (got -86)",
    );
  });

  it("maps a server error to upstream and a slow answer to the time budget", async () => {
    sim.sim.setScenario("cursor", "upstream_500");
    expect((await cursor()).error?.code).toBe("upstream");
    sim.sim.setScenario("cursor", "slow");
    expect((await cursor({}, 300)).error?.code).toBe("timeout");
  });

  it("takes the config's cookie header over CURSOR_COOKIE, and refuses a header without a session cookie unsent", async () => {
    const cleanup = writeConfig(sim.home, {
      providers: [{ id: "cursor", cookieHeader: `WorkosCursorSessionToken=${CURSOR_SIM.session}` }],
    });
    try {
      expect((await cursor({ CURSOR_COOKIE: "WorkosCursorSessionToken=wrong" })).ok).toBe(true);
    } finally {
      cleanup();
    }
    sim.sim.requests.length = 0;
    const none = await cursor({ CURSOR_COOKIE: "NEXT_LOCALE=en; _ga=GA1.1" });
    expect(none.error?.code).toBe("not_configured");
    expect(none.error?.message).toMatch(/^No Cursor session found: the cookie header has no session cookie/);
    expect(sim.sim.requests).toEqual([]);
  });
});

describe("cursor keeps the user /api/auth/me names: a later run sends the allowance beside the summary (one round trip)", () => {
  const OTHER = "auth0|user_02OTHERUSER";
  const which = (request: SimRequest) => (request.path === "/api/usage" ? `usage ${request.query.get("user")}` : request.path.slice(5));

  /**
   * Cursor on a simulator of its own, logging when each request arrives and is answered. Once
   * `holdUntilThree()` is called, each waits until three have arrived (a 504 after 2 s instead):
   * only a run that sends the three before any answers gets usage. `otherUser()` makes
   * /api/auth/me name another user, whose allowance is a request plan's.
   */
  async function loggedCursor() {
    const log: string[] = [];
    let [hold, other, arrived] = [false, false, 0];
    let release = () => undefined as void;
    let three = Promise.resolve();
    const answer = (request: SimRequest, scenario: string, route: SimRoute) => {
      if (other && request.path === "/api/auth/me") return { json: { ...fixture("auth-me.json"), sub: OTHER } };
      if (request.path === "/api/usage" && request.query.get("user") === OTHER) return { json: fixture("usage-requests.json") };
      return route.handle(request, scenario);
    };
    const upstream: SimulatedUpstream = {
      ...cursorUpstream,
      routes: cursorUpstream.routes.map((route) => ({
        ...route,
        async handle(request, scenario) {
          log.push(`${which(request)} asked`);
          if (++arrived === 3) release();
          const apart = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000).unref());
          if (hold && !(await Promise.race([three.then(() => true), apart]))) return { status: 504, body: "asked one at a time" };
          log.push(`${which(request)} answered`);
          return answer(request, scenario, route);
        },
      })),
    };
    const simulator = await ProviderSimulator.start({ providers: [upstream] });
    return {
      simulator,
      log,
      run: async () => (await sim.quotabar(simulator.env()).usage({ providers: ["cursor"] })).providers[0]!,
      users: () => simulator.requests.filter((r) => r.path === "/api/usage").map((r) => r.query.get("user")),
      holdUntilThree() {
        [hold, arrived, log.length, simulator.requests.length] = [true, 0, 0, 0];
        three = new Promise<void>((resolve) => (release = resolve));
      },
      otherUser: () => (other = true),
    };
  }
  const ALL_ASKED = ["auth/me asked", "usage-summary asked", `usage ${CURSOR_SIM.subject} asked`].sort();

  it("the first run asks in turn, as before, and keeps the subject; the next sends the three together with it", async () => {
    const { simulator, log, run, users, holdUntilThree } = await loggedCursor();
    try {
      simulator.setScenario("cursor", "request_plan");
      const first = await run();
      expect(first.primary).toMatchObject({ label: "Requests", used: 422, limit: 500 });
      // the allowance waited for /api/auth/me's answer
      expect(log.indexOf(`usage ${CURSOR_SIM.subject} asked`)).toBeGreaterThan(log.indexOf("auth/me answered"));
      expect(users()).toEqual([CURSOR_SIM.subject]);
      holdUntilThree();
      const second = await run();
      expect(log.slice(0, 3).sort()).toEqual(ALL_ASKED);
      expect(second).toMatchObject({ ok: true, plan: first.plan, primary: first.primary, details: first.details });
      expect(users()).toEqual([CURSOR_SIM.subject]);
      // the kept user is a plain value in the cache, never the cookie
      const kept = readFileSync(join(sim.home, ".cache", "quotabar", "kept", "cursor.json"), "utf8");
      expect(kept).toContain(JSON.stringify(CURSOR_SIM.subject));
      expect(kept).not.toContain(CURSOR_SIM.appToken);
    } finally {
      await simulator.stop();
    }
  });

  it("follows /api/auth/me when it names another user than the kept one: the allowance asked again with it, and kept", async () => {
    const { simulator, log, run, users, holdUntilThree, otherUser } = await loggedCursor();
    try {
      // the kept subject's account has no request allowance; the other user's has
      expect((await run()).primary).toMatchObject({ label: "Total", usedPercent: 0.44 });
      otherUser();
      holdUntilThree();
      const changed = await run();
      expect(log.slice(0, 3).sort()).toEqual(ALL_ASKED);
      expect(users()).toEqual([CURSOR_SIM.subject, OTHER]);
      expect(changed.primary).toMatchObject({ label: "Requests", used: 422, limit: 500 });
      holdUntilThree();
      const next = await run();
      expect(log.slice(0, 3).sort()).toEqual(["auth/me asked", "usage-summary asked", `usage ${OTHER} asked`].sort());
      expect(users()).toEqual([OTHER]);
      expect(next.primary).toEqual(changed.primary);
    } finally {
      await simulator.stop();
    }
  });

  it("a later run whose /api/auth/me fails keeps to the kept user, in one round trip; another cookie starts afresh", async () => {
    const { simulator, log, run, users, holdUntilThree } = await loggedCursor();
    try {
      simulator.setScenario("cursor", "request_plan");
      await run();
      simulator.setScenario("cursor", "enterprise_on_demand");
      holdUntilThree();
      const usage = await run();
      expect(log.slice(0, 3).sort()).toEqual(ALL_ASKED);
      expect(users()).toEqual([CURSOR_SIM.subject]);
      expect(usage).toMatchObject({ ok: true, primary: { label: "Total", usedPercent: 6.25 } });
      // the app's sign-in is another credential: nothing kept, so the allowance waits for /api/auth/me as on a first run
      simulator.setScenario("cursor", "request_plan");
      simulator.requests.length = 0;
      log.length = 0;
      expect(
        (await sim.quotabar({ ...simulator.env(), CURSOR_COOKIE: APP_COOKIE }).usage({ providers: ["cursor"] })).providers[0],
      ).toMatchObject({
        ok: true,
        primary: { label: "Requests" },
      });
      expect(log.indexOf(`usage ${CURSOR_SIM.subject} asked`)).toBeGreaterThan(log.indexOf("auth/me answered"));
    } finally {
      await simulator.stop();
    }
  });
});

describe("cursor with the Cursor app's sign-in (state.vscdb, read only)", () => {
  const stateDir = () => cursorStateDir(sim.home);
  const clear = () => rmSync(join(sim.home, ".config", "Cursor"), { recursive: true, force: true });
  const snapshotOf = (dir: string) =>
    Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name)).toString("base64")]));

  it("sends the app's token as the dashboard's session cookie, and leaves Cursor's files byte for byte as they were", async () => {
    const { path } = writeCursorState(sim.home, {
      "cursorAuth/accessToken": CURSOR_SIM.appToken,
      "cursorAuth/refreshToken": "sim-refresh",
    });
    const before = snapshotOf(stateDir());
    try {
      const usage = await cursor({ CURSOR_COOKIE: undefined });
      expect(usage, JSON.stringify(usage.error)).toMatchObject({ ok: true, source: "web", plan: "Pro" });
      expect(sim.sim.requests[0]!.headers.cookie).toBe(APP_COOKIE);
      expect(snapshotOf(stateDir())).toEqual(before);
      expect(existsSync(`${path}-wal`)).toBe(false);
    } finally {
      clear();
    }
  });

  it("reads a database the running app holds open in WAL mode (the write not yet checkpointed), changing none of its files", async () => {
    const state = writeCursorState(sim.home, { "cursorAuth/accessToken": CURSOR_SIM.appToken }, { open: true });
    try {
      const before = snapshotOf(stateDir());
      expect(Object.keys(before).sort()).toEqual(["state.vscdb", "state.vscdb-shm", "state.vscdb-wal"]);
      expect((await cursor({ CURSOR_COOKIE: undefined })).ok).toBe(true);
      expect(snapshotOf(stateDir())).toEqual(before);
    } finally {
      state.close();
      clear();
    }
  });

  it("reads a token stored as a UTF-16 blob", async () => {
    writeCursorState(sim.home, { "cursorAuth/accessToken": Buffer.from(CURSOR_SIM.appToken, "utf16le") });
    try {
      expect((await cursor({ CURSOR_COOKIE: undefined })).ok).toBe(true);
      expect(sim.sim.requests[0]!.headers.cookie).toBe(APP_COOKIE);
    } finally {
      clear();
    }
  });

  it("prefers a pasted cookie, and reads no app state with cookieSource manual", async () => {
    writeCursorState(sim.home, { "cursorAuth/accessToken": "not-a-token" });
    try {
      expect((await cursor()).ok).toBe(true);
      const cleanup = writeConfig(sim.home, { providers: [{ id: "cursor", cookieSource: "manual" }] });
      try {
        expect((await cursor({ CURSOR_COOKIE: undefined })).error?.code).toBe("not_configured");
      } finally {
        cleanup();
      }
    } finally {
      clear();
    }
  });

  it("says the app's sign-in expired (never refreshing it), and that nothing is signed in without a token", async () => {
    writeCursorState(sim.home, { "cursorAuth/accessToken": CURSOR_SIM.expiredAppToken, "cursorAuth/refreshToken": "sim-refresh" });
    try {
      const before = snapshotOf(stateDir());
      const expired = await cursor({ CURSOR_COOKIE: undefined });
      expect(expired.error).toMatchObject({ code: "expired" });
      expect(expired.error?.message).toMatch(/^The Cursor app's sign-in has expired: open the Cursor app/);
      expect(sim.sim.requests).toEqual([]);
      expect(snapshotOf(stateDir())).toEqual(before);
    } finally {
      clear();
    }
    writeCursorState(sim.home, {});
    try {
      const none = await cursor({ CURSOR_COOKIE: undefined });
      expect(none.error).toMatchObject({ code: "not_configured" });
      expect(none.error?.message).toBe(
        "No Cursor session found: no browser has a cursor.com session cookie, and the Cursor app is not signed in here.",
      );
      expect(none.error?.hint).toContain("open the Cursor app");
    } finally {
      clear();
    }
  });

  it("names a state file that is not a database, a directory or a FIFO, never its content, and waits on none", async () => {
    mkdirSync(stateDir(), { recursive: true });
    const path = join(stateDir(), "state.vscdb");
    try {
      writeFileSync(path, `secret-${CURSOR_SIM.appToken}`.repeat(200));
      const junk = await cursor({ CURSOR_COOKIE: undefined });
      expect(junk.error?.code).toBe("parse");
      expect(junk.error?.message).toContain(`Cursor's sign-in could not be read from ${path}`);
      expect(JSON.stringify(junk)).not.toContain(CURSOR_SIM.appToken);
      rmSync(path);
      mkdirSync(path);
      expect((await cursor({ CURSOR_COOKIE: undefined })).error?.message).toBe(
        `Cursor's sign-in could not be read from ${path}: a directory, not a file`,
      );
      rmSync(path, { recursive: true });
      execFileSync("mkfifo", [path]);
      expect((await cursor({ CURSOR_COOKIE: undefined })).error?.message).toBe(
        `Cursor's sign-in could not be read from ${path}: not a regular file (a FIFO)`,
      );
      // a FIFO in the place of the write-ahead log beside a real database: refused, never waited on
      rmSync(path);
      writeCursorState(sim.home, { "cursorAuth/accessToken": CURSOR_SIM.appToken });
      execFileSync("mkfifo", [`${path}-wal`]);
      expect((await cursor({ CURSOR_COOKIE: undefined })).error?.message).toBe(
        `Cursor's sign-in could not be read from ${path}: ${path}-wal is not a regular file`,
      );
    } finally {
      clear();
    }
  });
});

describe("the app token as a cookie", () => {
  it("takes the user id from the subject's last piece, and refuses one that cannot go in a cookie", () => {
    expect(userIdOfSubject("auth0|user_test")).toBe("user_test");
    expect(userIdOfSubject("google-oauth2|user_abc123")).toBe("user_abc123");
    expect(userIdOfSubject("user_abc123")).toBe("user_abc123");
    expect(userIdOfSubject("google-oauth2|")).toBe("google-oauth2");
    expect(userIdOfSubject("auth0|user;evil")).toBeNull();
    expect(userIdOfSubject(null)).toBeNull();
  });

  it("builds `<userId>%3A%3A<jwt>` and refuses a token near its expiry or not a token", () => {
    const now = new Date("2026-04-02T12:00:00Z");
    expect(sessionCookieOfToken(CURSOR_SIM.appToken, now, "db")).toBe(APP_COOKIE);
    const soon = (seconds: number) =>
      `h.${Buffer.from(JSON.stringify({ sub: "auth0|u1", exp: now.getTime() / 1000 + seconds })).toString("base64url")}.s`;
    expect(() => sessionCookieOfToken(soon(60), now, "db")).toThrow(/expired/);
    expect(sessionCookieOfToken(soon(61), now, "db")).toMatch(/^WorkosCursorSessionToken=u1%3A%3Ah\./);
    expect(() => sessionCookieOfToken("opaque", now, "db")).toThrow("The Cursor app's sign-in in db is not a token quotabar can read.");
  });
});
