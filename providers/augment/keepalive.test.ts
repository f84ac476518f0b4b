import { describe, expect, it } from "vitest";
import { parseOriginMap } from "../../adapters/http/origin-map.js";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { MemorySecretStore } from "../../adapters/secrets/memory-secret-store.js";
import {
  afterAttempt,
  attempted,
  FRESH_STATE,
  KEEPALIVE,
  parseState,
  refreshReason,
  SessionKeepalive,
  skipReason,
} from "../../domain/session-keepalive.js";
import { lazyGotTransport } from "../../library/lazy-transport.js";
import { writeCliRemedies } from "../../library/remedy-text.js";
import type { BrowserAccess, BrowserCookie } from "../../ports/browser-credentials.js";
import type { TextStore } from "../../ports/text-store.js";
import { PROVIDER_CATALOG } from "../registry.js";
import { memoryTextStore } from "../../test/browser/doubles.js";
import { useSimulator } from "../../test/helpers/harness.js";
import { AUGMENT_RENEWED_SESSION, AUGMENT_TEST_COOKIE, AUGMENT_TEST_SESSION } from "./simulator.js";

const sim = useSimulator();
const MINUTE = 60_000;
const START = Date.parse("2026-03-31T12:00:00Z");

/** A clock that moves only when told: no test here waits for real time. */
function fakeClock() {
  let now = START;
  return {
    now: () => new Date(now),
    advance: (ms: number) => void (now += ms),
    at: (minutes: number) => void (now = START + minutes * MINUTE),
  };
}

const cookie = (name: string, value: string, expiresInMinutes: number | null): BrowserCookie => ({
  name,
  value,
  domain: ".augmentcode.com",
  hostOnly: false,
  path: "/",
  expiresAt: expiresInMinutes === null ? null : new Date(START + expiresInMinutes * MINUTE).toISOString(),
  secure: true,
});

/** Chrome holding Augment's cookies with these expiries (or nothing), and the secret store that caches headers. */
function browsersWith(cookies: BrowserCookie[]): BrowserAccess {
  return {
    cookies: {
      read: async () => ({ candidates: cookies.length > 0 ? [{ browser: "chrome", profile: "Default", cookies }] : [], notes: [] }),
    },
    localStorage: { read: async () => ({ entries: [], notes: [] }) },
    secrets: new MemorySecretStore(),
    interactive: false,
  };
}

/** The keepalive as composeCore builds it, on the simulator, a fake clock, and a store shared between "runs". */
function keepalive(options: { pasted?: boolean; cookies?: BrowserCookie[]; store?: TextStore; clock: ReturnType<typeof fakeClock> }) {
  const env = sim.env(options.pasted === false ? { AUGMENT_COOKIE: undefined } : {});
  const browsers = browsersWith(options.cookies ?? []);
  const service = new SessionKeepalive({
    catalog: PROVIDER_CATALOG,
    config: { path: () => "/dev/null", load: async () => ({ providers: [] }), update: async () => ({ providers: [] }) },
    store: options.store ?? memoryTextStore(),
    clock: options.clock,
    env,
    transport: lazyGotTransport(parseOriginMap(env.QUOTABAR_ORIGIN_MAP)),
    processes: new NodeProcessRunner(""),
    browsers,
    writeRemedies: writeCliRemedies,
  });
  return { service, browsers };
}

const pings = () => sim.sim.requests.filter((r) => r.path.startsWith("/api/") && !["/api/credits", "/api/subscription"].includes(r.path));

describe("the spec's keepalive timings", () => {
  it("are exactly section 8's", () => {
    expect(KEEPALIVE).toMatchObject({
      checkEveryMs: 5 * MINUTE,
      refreshBeforeExpiryMs: 5 * MINUTE,
      minGapMs: 2 * MINUTE,
      sessionCookieEveryMs: 30 * MINUTE,
      maxFailures: 3,
    });
  });

  it("renews 5 minutes before the earliest expiry, not a moment earlier", () => {
    const now = new Date(START);
    const expiring = (ms: number) => ({ expiresAt: new Date(START + ms).toISOString() });
    expect(refreshReason(FRESH_STATE, expiring(5 * MINUTE), now)).toBeNull();
    expect(refreshReason(FRESH_STATE, expiring(5 * MINUTE - 1000), now)).toBe("the earliest cookie expires in 299 s");
    expect(refreshReason(FRESH_STATE, expiring(-MINUTE), now)).toBe("the earliest cookie expires in 0 s");
  });

  it("renews cookies without an expiry at once when never renewed, then 30 minutes after the last success", () => {
    const renewed = afterAttempt(attempted(FRESH_STATE, new Date(START), false), "renewed", new Date(START));
    expect(refreshReason(FRESH_STATE, { expiresAt: null }, new Date(START))).toBe("cookies without an expiry, never renewed");
    expect(refreshReason(renewed, { expiresAt: null }, new Date(START + 30 * MINUTE - 1))).toBeNull();
    expect(refreshReason(renewed, { expiresAt: null }, new Date(START + 30 * MINUTE))).toBe(
      "cookies without an expiry, last renewed 30 min ago",
    );
  });

  it("keeps attempts 2 minutes apart, stops after 3 failures, and lets a forced refresh through either", () => {
    let state = attempted(FRESH_STATE, new Date(START), false);
    expect(skipReason(state, new Date(START + 2 * MINUTE - 1), false)).toBe("the last attempt was 120 s ago (at least 120 s apart)");
    expect(skipReason(state, new Date(START + 2 * MINUTE), false)).toBeNull();
    for (const outcome of ["expired", "no-data", "error"] as const) state = afterAttempt(state, outcome, new Date(START));
    expect(state).toMatchObject({ failures: 3, gaveUp: true });
    expect(skipReason(state, new Date(START + 60 * MINUTE), false)).toBe("gave up after 3 failed renewals in a row");
    expect(skipReason(state, new Date(START), true)).toBeNull();
    expect(attempted(state, new Date(START), true)).toMatchObject({ failures: 0, gaveUp: false });
  });

  it("reads a stored state it cannot trust as a fresh one", () => {
    for (const text of [null, "", "{", "[]", '{"failures":-1,"lastAttemptAt":"yesterday"}']) expect(parseState(text)).toEqual(FRESH_STATE);
    expect(parseState('{"failures":2,"gaveUp":true,"lastSuccessAt":"2026-03-31T12:00:00.000Z"}')).toEqual({
      lastAttemptAt: null,
      lastSuccessAt: "2026-03-31T12:00:00.000Z",
      failures: 2,
      gaveUp: true,
    });
  });
});

describe("Augment's session keepalive on a fake clock, against the simulator", () => {
  it("checks every 5 minutes and renews a pasted header (no expiry) at once, then every 30 minutes", async () => {
    const clock = fakeClock();
    const { service } = keepalive({ clock });
    const outcomes: string[] = [];
    for (let minute = 0; minute <= 60; minute += KEEPALIVE.checkEveryMs / MINUTE) {
      clock.at(minute);
      const [report] = await service.check(["warp", "augment"]);
      outcomes.push(`${minute}:${report!.outcome}`);
    }
    expect(outcomes).toEqual([
      "0:renewed",
      ...[5, 10, 15, 20, 25].map((m) => `${m}:fresh`),
      "30:renewed",
      ...[35, 40, 45, 50, 55].map((m) => `${m}:fresh`),
      "60:renewed",
    ]);
    expect(pings().map((r) => r.path)).toEqual(["/api/auth/session", "/api/auth/session", "/api/auth/session"]);
    expect(pings()[0]!.headers).toMatchObject({
      cookie: AUGMENT_TEST_COOKIE,
      accept: "application/json",
      origin: "https://app.augmentcode.com",
      referer: "https://app.augmentcode.com",
    });
  });

  it("renews browser cookies 5 minutes before the earliest one expires, and keeps what the renewal set", async () => {
    const clock = fakeClock();
    const cookies = [cookie("_session", AUGMENT_TEST_SESSION, 60), cookie("ajs_anonymous_id", "anon", 17)];
    const { service, browsers } = keepalive({ clock, pasted: false, cookies });
    const seen: string[] = [];
    for (const minute of [0, 5, 10, 15]) {
      clock.at(minute);
      const [report] = await service.check(["augment"]);
      seen.push(`${minute}:${report!.outcome}:${report!.detail}`);
    }
    expect(seen).toEqual([
      "0:fresh:nothing expires soon",
      "5:fresh:nothing expires soon",
      "10:fresh:nothing expires soon",
      "15:renewed:the earliest cookie expires in 120 s",
    ]);
    const cached = JSON.parse((await browsers.secrets.get("quotabar", "cookie:augment")) as string);
    expect(cached).toMatchObject({ header: `_session=${AUGMENT_RENEWED_SESSION}; ajs_anonymous_id=anon`, source: "keepalive" });
  });

  it("never attempts twice within 2 minutes, across runs that share the stored state", async () => {
    const clock = fakeClock();
    const store = memoryTextStore();
    const expiring = [cookie("_session", AUGMENT_TEST_SESSION, 3)];
    const first = keepalive({ clock, store, pasted: false, cookies: expiring }).service;
    expect((await first.check(["augment"]))[0]).toMatchObject({ outcome: "renewed" });
    clock.at(1);
    const later = keepalive({ clock, store, pasted: false, cookies: expiring }).service; // another short-lived run
    expect((await later.check(["augment"]))[0]).toMatchObject({
      outcome: "skipped",
      detail: "the last attempt was 60 s ago (at least 120 s apart)",
    });
    clock.at(2);
    expect((await later.check(["augment"]))[0]).toMatchObject({ outcome: "renewed" });
    expect(pings()).toHaveLength(2);
  });

  it("gives up after 3 failures in a row and tells the user to sign in again; a forced refresh starts afresh", async () => {
    sim.sim.setScenario("augment", "expired");
    const clock = fakeClock();
    const { service } = keepalive({ clock });
    const reports = [];
    for (const minute of [0, 5, 10, 15]) {
      clock.at(minute);
      reports.push((await service.check(["augment"]))[0]!);
    }
    expect(reports.map((r) => [r.outcome, r.failures, r.gaveUp])).toEqual([
      ["failed", 1, false],
      ["failed", 2, false],
      ["gave-up", 3, true],
      ["skipped", 3, true],
    ]);
    expect(reports[0]!.detail).toBe("the service says the session expired");
    for (const report of reports.slice(2)) {
      expect(report.error).toEqual({
        code: "expired",
        message: "Augment session expired: renewing it failed 3 times in a row. Please sign in again.",
        hint: "Sign in at https://app.augmentcode.com in your browser.",
      });
    }
    expect(pings()).toHaveLength(9); // three endpoints a failed ping, none once it gave up
    sim.sim.setScenario("augment", "ok");
    clock.at(16);
    expect(await service.refresh("augment")).toMatchObject({ outcome: "renewed", failures: 0, gaveUp: false, error: null });
    expect(await service.state("augment")).toMatchObject({ failures: 0, gaveUp: false, lastSuccessAt: clock.now().toISOString() });
  });

  it("counts a signed-out answer as a failure, and a success clears the failures", async () => {
    sim.sim.setScenario("augment", "signed_out");
    const clock = fakeClock();
    const { service } = keepalive({ clock });
    expect((await service.check(["augment"]))[0]).toMatchObject({
      outcome: "failed",
      failures: 1,
      detail: "no renewal endpoint confirmed the session",
    });
    sim.sim.setScenario("augment", "ok");
    clock.at(5);
    expect((await service.check(["augment"]))[0]).toMatchObject({ outcome: "renewed", failures: 0 });
  });

  it("tries the session endpoints in turn until one confirms the session", async () => {
    sim.sim.setScenario("augment", "session_on_user");
    const { service } = keepalive({ clock: fakeClock() });
    expect((await service.check(["augment"]))[0]?.outcome).toBe("renewed");
    expect(pings().map((r) => r.path)).toEqual(["/api/auth/session", "/api/session", "/api/user"]);
  });

  it("skips without a session, and a forced refresh says what to do about it", async () => {
    const { service } = keepalive({ clock: fakeClock(), pasted: false });
    expect((await service.check(["augment"]))[0]).toMatchObject({ outcome: "skipped", detail: "no session cookies found", error: null });
    expect(await service.refresh("augment")).toMatchObject({
      outcome: "failed",
      error: {
        code: "not_configured",
        message: "No Augment session found to refresh.",
        hint: "Sign in at https://app.augmentcode.com in your browser.",
      },
    });
    expect(pings()).toEqual([]);
  });

  it("leaves providers without a web session out, and refuses to refresh one", async () => {
    const { service } = keepalive({ clock: fakeClock() });
    expect(await service.check(["warp", "copilot"])).toEqual([]);
    await expect(service.refresh("warp")).rejects.toThrow("Warp has no web session to keep alive");
  });

  it("never puts the session in a report", async () => {
    sim.sim.setScenario("augment", "echo_headers");
    const clock = fakeClock();
    const { service } = keepalive({ clock });
    const reports = [];
    for (const minute of [0, 5, 10]) {
      clock.at(minute);
      reports.push(...(await service.check(["augment"])));
    }
    expect(JSON.stringify(reports)).not.toContain(AUGMENT_TEST_SESSION);
  });
});
