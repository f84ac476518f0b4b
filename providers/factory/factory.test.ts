import { createRequire } from "node:module";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChromiumLocalStorageReader } from "../../adapters/browser/leveldb/chromium-local-storage.js";
import { MemorySecretStore } from "../../adapters/secrets/memory-secret-store.js";
import { BetterSqlite } from "../../adapters/sqlite/better-sqlite3.js";
import { createNodeCore } from "../../library/node-core.js";
import type { SimReply, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { fixturesOf } from "../../simulator/fixtures.js";
import { ProviderSimulator } from "../../simulator/server.js";
import { tempHome, useSimulator } from "../../test/helpers/harness.js";
import { bearerFromCookies, FACTORY_SESSION, staleTokenFallbacks } from "./cookies.js";
import { accessTokenClaims } from "./jwt.js";
import { factorySnapshot, periodMinutes, planLabel, poolPercent } from "./policy.js";
import { FACTORY_SIM, factoryUpstream } from "./simulator.js";
import { WORKOS_CLIENT_IDS } from "./workos.js";

const sim = useSimulator();
let home: string;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const sessionFile = () => join(home, ".config", "quotabar", "factory-session.json");
const FUTURE = Math.floor(Date.parse("2027-01-01T00:00:00Z") / 1000);
const sessionCookie = (extra: Record<string, unknown> = {}) => ({
  Name: "wos-session",
  Value: FACTORY_SIM.sessionCookie,
  Domain: ".factory.ai",
  Path: "/",
  Secure: true,
  Expires: FUTURE,
  Expires_isDate: true,
  ...extra,
});

function writeSession(content: unknown): void {
  mkdirSync(join(home, ".config", "quotabar"), { recursive: true });
  writeFileSync(sessionFile(), typeof content === "string" ? content : JSON.stringify(content));
}
const readSessionFile = () => JSON.parse(readFileSync(sessionFile(), "utf8")) as Record<string, unknown>;

interface CoreOptions {
  entry?: Record<string, unknown>;
  secrets?: MemorySecretStore;
  localStorage?: ChromiumLocalStorageReader;
  simulator?: ProviderSimulator;
  /** "darwin" reads Safari's files under the test HOME. */
  platform?: NodeJS.Platform;
}

/** The core as the CLI composes it, on the test HOME, with the secret store in memory. */
function factoryCore({ entry, secrets, localStorage, simulator, platform = "linux" }: CoreOptions = {}) {
  if (entry) {
    mkdirSync(join(home, ".config", "quotabar"), { recursive: true });
    writeFileSync(
      join(home, ".config", "quotabar", "config.json"),
      JSON.stringify({ version: 1, providers: [{ id: "factory", ...entry }] }),
    );
  }
  const env = { ...(simulator ?? sim.sim).env(), HOME: home, XDG_CONFIG_HOME: undefined, XDG_CACHE_HOME: undefined };
  return createNodeCore({
    env,
    browsers: {
      sqlite: new BetterSqlite(),
      secrets: secrets ?? new MemorySecretStore(),
      interactive: false,
      platform,
      ...(localStorage ? { chromiumLocalStorage: localStorage } : {}),
    },
  });
}

async function factory(options: CoreOptions = {}) {
  const doc = await factoryCore(options).usage.usage({ providers: ["factory"] });
  return doc.providers[0]!;
}

const requests = (simulator = sim.sim) => simulator.requests.filter((r) => r.providerId === "factory");
const paths = (simulator = sim.sim) => requests(simulator).map((r) => `${r.method} ${r.origin}${r.path}`);
const AUTH_ME = "GET https://auth.factory.ai/api/app/auth/me";
const USAGE = "POST https://auth.factory.ai/api/organization/subscription/usage";
const MINT = "POST https://api.workos.com/user_management/authenticate";

describe("factory policy (spec 2.2: Standard, Premium, end of the billing period)", () => {
  it.each([
    ["a ratio", { used: 6_400_000, allowance: 20_000_000, ratio: 0.32 }, 32],
    ["a ratio a hair above 1, clamped", { used: 1, allowance: 10, ratio: 1.0005 }, 100],
    ["a percent when the allowance is unreliable", { used: 0, allowance: 0, ratio: 12.5 }, 12.5],
    ["a percent-sized ratio beside a real allowance: the tokens", { used: 5, allowance: 10, ratio: 12.5 }, 50],
    ["a zero ratio with tokens used: the tokens", { used: 250, allowance: 1000, ratio: 0 }, 25],
    ["the unlimited sentinel: 100M tokens fill the bar", { used: 42_000_000, allowance: 9_007_199_254_740_991, ratio: null }, 42],
    ["no allowance and no ratio", { used: 500, allowance: 0, ratio: null }, 0],
    ["more than the allowance, capped", { used: 30, allowance: 20, ratio: null }, 100],
  ])("reads %s", (_, pool, expected) => {
    expect(poolPercent(pool)).toBeCloseTo(expected, 6);
  });

  it("labels the plan Factory <Tier> - <plan>, leaving out a plan name that says Factory", () => {
    expect(planLabel("team", "Team")).toBe("Factory Team"); // not "Factory Team - Team"
    expect(planLabel("team", "Enterprise Seats")).toBe("Factory Team - Enterprise Seats");
    expect(planLabel("enterprise", "Factory Enterprise")).toBe("Factory Enterprise");
    expect(planLabel(null, "Pro")).toBe("Pro");
    expect(planLabel(null, null)).toBeNull();
  });

  it("takes the window from endDate − startDate, else the calendar month up to endDate", () => {
    // a period that is no calendar month (started on the 10th, after a plan change): its own length
    expect(periodMinutes("2026-03-10T00:00:00.000Z", "2026-04-01T00:00:00.000Z")).toBe(22 * 1440);
    expect(periodMinutes(null, "2026-03-01T00:00:00.000Z")).toBe(28 * 1440);
    // an end before its start says nothing: the calendar month instead
    expect(periodMinutes("2026-04-02T00:00:00.000Z", "2026-04-01T00:00:00.000Z")).toBe(31 * 1440);
    expect(periodMinutes("2026-03-01T00:00:00.000Z", null)).toBeNull();
  });

  it("shows the unlimited sentinel without a limit, and no Premium meter when the answer has none", () => {
    const snapshot = factorySnapshot({
      credential: "Step 3: stored bearer token",
      organization: null,
      tier: null,
      planName: null,
      periodStart: null,
      periodEnd: "2026-04-01T00:00:00.000Z",
      standard: { used: 42_000_000, allowance: 9_007_199_254_740_991, ratio: null },
      premium: null,
    });
    expect(snapshot.primary).toMatchObject({ label: "Standard", usedPercent: 42, used: 42_000_000, limit: null, unit: "tokens" });
    expect(snapshot.primary?.note).toContain("100M tokens");
    expect(snapshot.secondary).toBeNull();
    expect(snapshot.details).toEqual([{ label: "Credential", value: "Step 3: stored bearer token" }]);
  });
});

describe("factory cookies and tokens", () => {
  it("recognises the session cookies of spec section 5", () => {
    const names = [
      "_session",
      "session",
      "access-token",
      "web_rpc_proxy_session",
      "wos-session",
      "next-auth.session-token",
      "__Secure-next-auth.session-token",
      "__Secure-authjs.session-token.1",
      "__Host-authjs.csrf-token",
      "authjs.is.authenticated",
    ];
    expect(names.filter((n) => FACTORY_SESSION.isSession(n))).toEqual(names);
    expect(["theme", "__cf_bm", "session-token", "wos"].filter((n) => FACTORY_SESSION.isSession(n))).toEqual([]);
  });

  it("picks the bearer of a cookie set: a JWT-like access-token, then auth session, then session; else an opaque one", () => {
    const pairs = (header: string) => header.split("; ").map((p) => ({ name: p.split("=")[0]!, value: p.split("=")[1]! }));
    expect(bearerFromCookies(pairs("access-token=opaque; next-auth.session-token=a.b.c; session=x.y"))).toBe("a.b.c");
    expect(bearerFromCookies(pairs("access-token=j.w.t; session=x.y"))).toBe("j.w.t");
    expect(bearerFromCookies(pairs("session=x.y"))).toBe("x.y");
    expect(bearerFromCookies(pairs("access-token=opaque; session=plain"))).toBe("opaque");
    expect(bearerFromCookies(pairs("wos-session=s"))).toBeNull();
  });

  it("lists the stale-token fallbacks, each only when it leaves something out", () => {
    expect(staleTokenFallbacks("access-token=a; session=s; next-auth.session-token=n; __Host-authjs.csrf-token=c")).toEqual([
      "session=s; next-auth.session-token=n; __Host-authjs.csrf-token=c",
      "access-token=a; next-auth.session-token=n; __Host-authjs.csrf-token=c",
      "next-auth.session-token=n; __Host-authjs.csrf-token=c",
    ]);
    expect(staleTokenFallbacks("wos-session=w")).toEqual([]);
  });

  it("reads org_id, sub and exp from a JWT payload, and nothing from other shapes", () => {
    expect(accessTokenClaims(FACTORY_SIM.mintedBearer)).toEqual({
      orgId: FACTORY_SIM.organizationId,
      userId: FACTORY_SIM.userId,
      expiresAtMs: null,
    });
    expect(accessTokenClaims(FACTORY_SIM.expiredBearer).expiresAtMs).toBe(1_700_000_000_000);
    expect(accessTokenClaims("opaque")).toEqual({ orgId: null, userId: null, expiresAtMs: null });
    expect(accessTokenClaims("a.!!!.c")).toEqual({ orgId: null, userId: null, expiresAtMs: null });
  });
});

describe("factory against the simulator: each step of the chain alone", () => {
  it("step 3, a stored bearer token: the spec's meters, the request as the web app sends it, on the auth base first", async () => {
    writeSession({ bearerToken: FACTORY_SIM.bearer, refreshToken: FACTORY_SIM.refreshToken });
    const usage = await factory();
    expect(usage).toMatchObject({ ok: true, source: "oauth", plan: "Factory Team" });
    expect(usage.primary).toMatchObject({
      label: "Standard",
      usedPercent: 32,
      used: 6_400_000,
      limit: 20_000_000,
      unit: "tokens",
      resetsAt: "2026-04-01T00:00:00.000Z",
      // endDate − startDate: 1 March to 1 April
      windowMinutes: 31 * 1440,
    });
    expect(usage.secondary).toMatchObject({ label: "Premium", usedPercent: 15, used: 150_000, limit: 1_000_000, windowMinutes: 31 * 1440 });
    expect(usage.secondary?.resetsAt).toBe("2026-04-01T00:00:00.000Z");
    expect(usage.details).toEqual([
      { label: "Organization", value: "Northwind Robotics" },
      { label: "Credential", value: "Step 3: stored bearer token" },
    ]);
    // lazy: the refresh token was not exchanged, since the bearer answered (both went out together: either may arrive first)
    expect(paths().sort()).toEqual([AUTH_ME, USAGE]);
    const me = requests().find((r) => r.path === "/api/app/auth/me");
    const call = requests().find((r) => r.method === "POST");
    expect(me!.headers).toMatchObject({
      accept: "application/json",
      "content-type": "application/json",
      origin: "https://app.factory.ai",
      referer: "https://app.factory.ai/",
      "x-factory-client": "web-app",
      authorization: `Bearer ${FACTORY_SIM.bearer}`,
    });
    expect(me!.headers.cookie).toBeUndefined();
    expect(JSON.parse(call!.body)).toEqual({ useCache: true, userId: FACTORY_SIM.userId });
  });

  it.each([
    ["CodexBar's object", { cookies: [sessionCookie(), { Name: "theme", Value: "dark", Domain: "app.factory.ai", Path: "/" }] }],
    ["the legacy array, lower-case keys", [{ name: "wos-session", value: FACTORY_SIM.sessionCookie, domain: ".factory.ai", path: "/" }]],
  ])("step 2, stored session cookies (%s)", async (_, content) => {
    writeSession(content);
    const usage = await factory();
    expect(usage).toMatchObject({ ok: true, source: "web" });
    expect(usage.details).toContainEqual({ label: "Credential", value: "Step 2: stored session cookies" });
    const me = requests()[0]!;
    expect(String(me.headers.cookie)).toContain(`wos-session=${FACTORY_SIM.sessionCookie}`);
    expect(me.headers.authorization).toBeUndefined();
    // no userId is known from cookies alone
    expect(JSON.parse(requests()[1]!.body)).toEqual({ useCache: true });
  });

  it("step 4, a stored refresh token: minted through WorkOS, the new tokens written back owner-only", async () => {
    writeSession({ refreshToken: FACTORY_SIM.refreshToken, keep: "unknown keys survive" });
    const usage = await factory();
    expect(usage).toMatchObject({ ok: true, source: "oauth" });
    expect(usage.details).toContainEqual({ label: "Credential", value: "Step 4: stored refresh token, minted through WorkOS" });
    expect(paths()[0]).toBe(MINT);
    expect(paths().slice(1).sort()).toEqual([AUTH_ME, USAGE]);
    expect(JSON.parse(requests()[0]!.body)).toEqual({
      client_id: WORKOS_CLIENT_IDS[0],
      grant_type: "refresh_token",
      refresh_token: FACTORY_SIM.refreshToken,
    });
    expect(requests()[1]!.headers.authorization).toBe(`Bearer ${FACTORY_SIM.mintedBearer}`);
    expect(requests()[2]!.headers.authorization).toBe(`Bearer ${FACTORY_SIM.mintedBearer}`);
    expect(readSessionFile()).toEqual({
      keep: "unknown keys survive",
      bearerToken: FACTORY_SIM.mintedBearer,
      refreshToken: FACTORY_SIM.rotatedRefreshToken,
    });
    expect(statSync(sessionFile()).mode & 0o777).toBe(0o600);
  });

  it("step 4 sends the organization of the stored (expired) bearer, which step 3 skips", async () => {
    writeSession({ bearerToken: FACTORY_SIM.expiredBearer, refreshToken: FACTORY_SIM.refreshToken });
    const usage = await factory();
    expect(usage.ok).toBe(true);
    expect(paths()[0]).toBe(MINT);
    expect(JSON.parse(requests()[0]!.body)).toMatchObject({ organization_id: FACTORY_SIM.organizationId });
  });

  it("tries the second WorkOS client id when the first is refused", async () => {
    sim.sim.setScenario("factory", "first_client_refused");
    writeSession({ refreshToken: FACTORY_SIM.refreshToken });
    const usage = await factory();
    expect(usage.ok).toBe(true);
    expect(
      requests()
        .filter((r) => r.path === "/user_management/authenticate")
        .map((r) => JSON.parse(r.body).client_id),
    ).toEqual(WORKOS_CLIENT_IDS);
  });

  it("step 1, the cached cookie header; a refused one is forgotten", async () => {
    const secrets = new MemorySecretStore();
    const cached = JSON.stringify({
      header: `wos-session=${FACTORY_SIM.sessionCookie}`,
      storedAt: "2026-03-01T00:00:00Z",
      source: "chrome/Default",
    });
    await secrets.set("quotabar", "cookie:factory", cached);
    const usage = await factory({ secrets });
    expect(usage).toMatchObject({ ok: true, source: "web" });
    expect(usage.details).toContainEqual({ label: "Credential", value: "Step 1: cached cookie header" });
    sim.sim.setScenario("factory", "signed_out");
    const refused = await factory({ secrets });
    expect(refused.error?.code).toBe("expired");
    expect(await secrets.get("quotabar", "cookie:factory")).toBeNull();
  });

  it("a pasted header comes first: cookies, or an Authorization: Bearer token", async () => {
    writeSession({ bearerToken: FACTORY_SIM.bearer });
    const pasted = await factory({ entry: { cookieHeader: `Cookie: wos-session=${FACTORY_SIM.sessionCookie}` } });
    expect(pasted).toMatchObject({ ok: true, source: "web" });
    expect(pasted.details).toContainEqual({ label: "Credential", value: "Pasted cookie header" });
    sim.sim.requests.length = 0;
    const bearer = await factory({ entry: { cookieHeader: `Authorization: Bearer ${FACTORY_SIM.mintedBearer}` } });
    expect(bearer.ok).toBe(true);
    expect(requests()[0]!.headers.authorization).toBe(`Bearer ${FACTORY_SIM.mintedBearer}`);
  });

  it("with cookieSource manual only the pasted header is used, and its absence is said", async () => {
    writeSession({ bearerToken: FACTORY_SIM.bearer });
    const usage = await factory({ entry: { cookieSource: "manual" } });
    expect(usage.error).toMatchObject({
      code: "not_configured",
      message: "Factory's cookie source is manual, but no cookie header is set.",
    });
    expect(requests()).toEqual([]);
  });
});

describe("factory against the simulator: falling through and failing", () => {
  /** A Chromium profile whose Local Storage holds these items (the reader itself is tested against real Chromium). */
  function localStorageOf(items: Record<string, string>): ChromiumLocalStorageReader {
    mkdirSync(join(home, ".config", "chromium", "Default"), { recursive: true });
    return async (profileDir) =>
      profileDir.endsWith(join("chromium", "Default"))
        ? Object.entries(items).map(([key, value]) => ({ origin: "https://app.factory.ai", key, value }))
        : [];
  }

  it("a refused mint (no session at WorkOS) falls through to the next step, and the refresh token is kept", async () => {
    sim.sim.setScenario("factory", "mint_refused");
    writeSession({ refreshToken: FACTORY_SIM.refreshToken });
    const localStorage = localStorageOf({ "workos:access-token": FACTORY_SIM.bearer });
    const usage = await factory({ localStorage });
    expect(usage).toMatchObject({ ok: true, source: "oauth" });
    expect(usage.details).toContainEqual({ label: "Credential", value: "Step 5: WorkOS tokens in Local Storage (chromium/Default)" });
    expect(paths().slice(0, 2)).toEqual([MINT, MINT]);
    expect(readSessionFile()).toEqual({ refreshToken: FACTORY_SIM.refreshToken, bearerToken: FACTORY_SIM.bearer });
  });

  it("step 5 mints with a Local Storage refresh token and the access token's org_id", async () => {
    const localStorage = localStorageOf({
      "workos:refresh-token": `"${FACTORY_SIM.refreshToken}"`,
      "workos:access-token": FACTORY_SIM.expiredBearer,
    });
    const usage = await factory({ localStorage });
    expect(usage.ok).toBe(true);
    expect(paths()[0]).toBe(MINT);
    expect(JSON.parse(requests()[0]!.body)).toEqual({
      client_id: WORKOS_CLIENT_IDS[0],
      grant_type: "refresh_token",
      refresh_token: FACTORY_SIM.refreshToken,
      organization_id: FACTORY_SIM.organizationId,
    });
    expect(readSessionFile()).toEqual({ bearerToken: FACTORY_SIM.mintedBearer, refreshToken: FACTORY_SIM.rotatedRefreshToken });
  });

  it("a refresh token WorkOS calls dead (invalid_grant) is erased, and the refusal is the error when nothing follows", async () => {
    sim.sim.setScenario("factory", "mint_expired");
    writeSession({ refreshToken: FACTORY_SIM.refreshToken, cookies: [] });
    const usage = await factory();
    expect(usage.error).toMatchObject({ code: "expired" });
    expect(usage.error?.message).toContain("WorkOS refused the refresh token");
    expect(usage.error?.hint).toContain("Sign in at https://app.factory.ai in your browser.");
    expect(readSessionFile()).toEqual({ cookies: [] });
  });

  it("a refused stored bearer falls through to the refresh token (laziness the other way round)", async () => {
    sim.sim.setScenario("factory", "bearer_expired");
    writeSession({ bearerToken: FACTORY_SIM.bearer, refreshToken: FACTORY_SIM.refreshToken });
    const usage = await factory();
    expect(usage.ok).toBe(true);
    expect(usage.details).toContainEqual({ label: "Credential", value: "Step 4: stored refresh token, minted through WorkOS" });
    // the bearer was refused on every base (in the spec's order) before WorkOS was asked; each usage went beside its /auth/me
    expect(
      paths()
        .filter((p) => !p.includes("/usage"))
        .slice(0, 4),
    ).toEqual([AUTH_ME, "GET https://api.factory.ai/api/app/auth/me", "GET https://app.factory.ai/api/app/auth/me", MINT]);
    expect(
      paths()
        .slice(0, paths().indexOf(MINT))
        .filter((p) => p.includes("/usage")),
    ).toHaveLength(3);
  });

  it("an expired session: the spec's guidance (log in to app.factory.ai again), and the dead session is dropped", async () => {
    sim.sim.setScenario("factory", "signed_out");
    writeSession({ cookies: [sessionCookie()], bearerToken: FACTORY_SIM.bearer });
    const usage = await factory();
    expect(usage.error).toMatchObject({
      code: "expired",
      message: "Not logged in to Factory: the session has expired or was signed out. Please log in to app.factory.ai again.",
    });
    expect(usage.error?.hint).toMatch(/^Sign in at https:\/\/app\.factory\.ai in your browser\. Paste a Cookie header/);
    expect(readSessionFile()).toEqual({});
  });

  it("nothing anywhere: no session found, log in to app.factory.ai", async () => {
    const usage = await factory();
    expect(usage.error).toMatchObject({
      code: "not_configured",
      message: `No Factory session found. Please log in to app.factory.ai in ${process.platform === "darwin" ? "Safari, Chrome or Firefox" : "Chrome, Chromium or Firefox"}.`,
    });
    expect(requests()).toEqual([]);
  });

  it("a session file that does not parse is reported by the explanation, skipped, and never written over", async () => {
    writeSession("{ not json");
    const usage = await factory();
    expect(usage.error?.code).toBe("not_configured");
    expect(readFileSync(sessionFile(), "utf8")).toBe("{ not json");
  });

  it("retries a stale token (409) without the bearer", async () => {
    sim.sim.setScenario("factory", "stale_token");
    writeSession({ cookies: [sessionCookie(), sessionCookie({ Name: "access-token", Value: FACTORY_SIM.expiredBearer })] });
    const usage = await factory();
    expect(usage.ok).toBe(true);
    const [stale, retry] = requests().filter((r) => r.path === "/api/app/auth/me");
    expect(stale!.headers.authorization).toBe(`Bearer ${FACTORY_SIM.expiredBearer}`);
    expect(retry!.headers.authorization).toBeUndefined();
    expect(String(retry!.headers.cookie)).toContain("wos-session=");
  });

  it("takes the usage as a GET with a query when the POST is not allowed (the service's current shape)", async () => {
    sim.sim.setScenario("factory", "usage_get_only");
    writeSession({ bearerToken: FACTORY_SIM.bearer });
    const usage = await factory();
    expect(usage.ok).toBe(true);
    const get = requests().find((r) => r.method === "GET" && r.path.endsWith("/usage"))!;
    expect(Object.fromEntries(get.query)).toEqual({ useCache: "true", userId: FACTORY_SIM.userId });
  });

  it("reads the current /auth/me: userProfile.id as the userId, snake_case subscription, a non-boolean flag", async () => {
    sim.sim.setScenario("factory", "user_profile");
    writeSession({ cookies: [sessionCookie()] });
    const usage = await factory();
    expect(usage.plan).toBe("Factory Enterprise");
    expect(JSON.parse(requests()[1]!.body)).toEqual({ useCache: true, userId: FACTORY_SIM.userId });
  });

  it("shows the unlimited sentinel and a percent-sized Premium ratio", async () => {
    sim.sim.setScenario("factory", "unlimited");
    writeSession({ bearerToken: FACTORY_SIM.bearer });
    const usage = await factory();
    expect(usage.error).toBeNull();
    // no startDate in this answer: the calendar month up to endDate
    expect(usage.primary).toMatchObject({ usedPercent: 42, limit: null, resetsAt: "2026-04-01T00:00:00.000Z", windowMinutes: 31 * 1440 });
    expect(usage.secondary).toMatchObject({ usedPercent: 12.5, used: 0, limit: null });
  });

  it("fails a token count that is not a number as a parse error naming the field", async () => {
    sim.sim.setScenario("factory", "non_numeric");
    writeSession({ bearerToken: FACTORY_SIM.bearer });
    const usage = await factory();
    expect(usage.error?.code).toBe("parse");
    expect(usage.error?.message).toContain("usage.standard.user_tokens");
  });

  it("goes on to the next base when one fails, in the spec's order", async () => {
    const authDown = {
      id: "factory-auth-down",
      origins: ["https://auth.factory.ai"],
      env: {},
      scenarios: ["down"],
      routes: [{ method: "GET" as const, path: /.*/, handle: () => ({ status: 503, body: "Service Unavailable" }) }],
    };
    const simulator = await ProviderSimulator.start({ providers: [authDown, factoryUpstream] });
    try {
      writeSession({ bearerToken: FACTORY_SIM.bearer });
      const usage = await factory({ simulator });
      expect(usage.ok).toBe(true);
      // the transport retries a GET once on a 5xx
      const seen = simulator.requests.map((r) => `${r.method} ${r.origin}${r.path}`);
      expect([...new Set(seen.filter((p) => p.endsWith("/auth/me")))]).toEqual([AUTH_ME, "GET https://api.factory.ai/api/app/auth/me"]);
      // the usage went beside each /auth/me (on the auth base its POST found no route, then its GET the outage)
      expect([...new Set(seen.filter((p) => p.endsWith("/usage")))].sort()).toEqual([
        "GET https://auth.factory.ai/api/organization/subscription/usage",
        "POST https://api.factory.ai/api/organization/subscription/usage",
      ]);
    } finally {
      await simulator.stop();
    }
  });
});

describe("factory asks /auth/me and the usage together when the userId is known (one round trip)", () => {
  const name = (path: string) => (path.endsWith("/auth/me") ? "me" : "usage");

  /**
   * Factory on a simulator of its own, logging when /auth/me and the usage arrive and are answered.
   * Once `holdUntilBoth()` is called, each waits until the other has arrived (a 504 after 2 s
   * instead): only a fetch that sends both before either answers gets usage.
   */
  async function loggedFactory() {
    const log: string[] = [];
    let hold = false;
    let arrived = new Set<string>();
    let release = () => undefined as void;
    let both = Promise.resolve();
    const upstream: SimulatedUpstream = {
      ...factoryUpstream,
      routes: factoryUpstream.routes.map((route) =>
        route.path === "/user_management/authenticate"
          ? route
          : {
              ...route,
              async handle(request, scenario) {
                const which = name(request.path);
                log.push(`${which} asked`);
                arrived.add(which);
                if (arrived.size === 2) release();
                const apart = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000).unref());
                if (hold && !(await Promise.race([both.then(() => true), apart]))) return { status: 504, body: "asked one at a time" };
                log.push(`${which} answered`);
                return route.handle(request, scenario);
              },
            },
      ),
    };
    const simulator = await ProviderSimulator.start({ providers: [upstream] });
    return {
      simulator,
      log,
      holdUntilBoth() {
        [hold, arrived, log.length] = [true, new Set(), 0];
        both = new Promise<void>((resolve) => (release = resolve));
      },
      answerAtOnce() {
        [hold, log.length] = [false, 0];
      },
    };
  }
  const SEQUENTIAL = ["me asked", "me answered", "usage asked", "usage answered"];
  const together = (log: string[]) => log.slice(0, 2).sort();

  it("with a JWT bearer: both are sent before either answers, and the document is the same", async () => {
    const { simulator, log, holdUntilBoth } = await loggedFactory();
    try {
      writeSession({ bearerToken: FACTORY_SIM.bearer });
      holdUntilBoth();
      const usage = await factory({ simulator });
      expect(together(log)).toEqual(["me asked", "usage asked"]);
      expect(usage).toMatchObject({ ok: true, source: "oauth", plan: "Factory Team" });
      expect(usage.primary).toMatchObject({ label: "Standard", usedPercent: 32, used: 6_400_000, limit: 20_000_000 });
      expect(usage.secondary).toMatchObject({ label: "Premium", usedPercent: 15, resetsAt: "2026-04-01T00:00:00.000Z" });
      expect(usage.details).toEqual([
        { label: "Organization", value: "Northwind Robotics" },
        { label: "Credential", value: "Step 3: stored bearer token" },
      ]);
      const call = simulator.requests.find((r) => r.method === "POST")!;
      expect(JSON.parse(call.body)).toEqual({ useCache: true, userId: FACTORY_SIM.userId });
    } finally {
      await simulator.stop();
    }
  });

  it("cookie-only: the first run asks in turn and keeps the userId /auth/me names; the next sends both together with it", async () => {
    const { simulator, log, holdUntilBoth, answerAtOnce } = await loggedFactory();
    try {
      simulator.setScenario("factory", "user_profile");
      writeSession({ cookies: [sessionCookie()] });
      const first = await factory({ simulator });
      expect(first.ok).toBe(true);
      expect(log).toEqual(SEQUENTIAL);
      holdUntilBoth();
      simulator.requests.length = 0;
      const second = await factory({ simulator });
      expect(together(log)).toEqual(["me asked", "usage asked"]);
      expect(second).toMatchObject({ ok: true, plan: "Factory Enterprise", primary: { usedPercent: 32 } });
      const call = simulator.requests.find((r) => r.method === "POST")!;
      expect(call.headers.authorization).toBeUndefined();
      expect(JSON.parse(call.body)).toEqual({ useCache: true, userId: FACTORY_SIM.userId });
      // another credential (here a pasted header) starts with nothing kept
      answerAtOnce();
      const other = await factory({ simulator, entry: { cookieHeader: `wos-session=${FACTORY_SIM.sessionCookie}; theme=dark` } });
      expect(other.ok).toBe(true);
      expect(log).toEqual(SEQUENTIAL);
    } finally {
      await simulator.stop();
    }
  });

  /** Factory answering from fixtures whatever the credential: `me` for /auth/me, `usage` for the usage. */
  async function fixedFactory(me: SimReply, usage: SimReply) {
    const bodies: unknown[] = [];
    const upstream: SimulatedUpstream = {
      id: "factory",
      origins: factoryUpstream.origins,
      env: {},
      scenarios: ["ok"],
      routes: [
        { method: "GET", path: "/api/app/auth/me", handle: () => me },
        {
          method: "POST",
          path: "/api/organization/subscription/usage",
          handle: (request) => (bodies.push(JSON.parse(request.body)), usage),
        },
      ],
    };
    return { simulator: await ProviderSimulator.start({ providers: [upstream] }), bodies };
  }
  const fixture = fixturesOf(import.meta.url);
  const jwt = (claims: object) => `eyJhbGciOiJSUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.c2ln`;

  it("an /auth/me 401 is the error even with the usage answering, and the usage still in flight is let go", async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on("unhandledRejection", onRejection);
    const { simulator, bodies } = await fixedFactory(
      { status: 401, body: fixture("not-logged-in.json") },
      { body: fixture("usage.json"), delayMs: 500 },
    );
    try {
      writeSession({ bearerToken: FACTORY_SIM.bearer });
      const usage = await factory({ simulator });
      expect(usage.error).toMatchObject({
        code: "expired",
        message: "Not logged in to Factory: the session has expired or was signed out. Please log in to app.factory.ai again.",
      });
      // each base was asked both, in the spec's order; the refused bearer is dropped as before
      expect(bodies).toHaveLength(3);
      expect(readSessionFile()).toEqual({});
      // the usage requests cut off when the fetch ended reject into their own handler
      await simulator.stop();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(rejections).toEqual([]);
    } finally {
      process.off("unhandledRejection", onRejection);
      await simulator.stop();
    }
  });

  it("asks the usage again when /auth/me names another user than the JWT's sub: /auth/me's id wins, as before", async () => {
    const { simulator, bodies } = await fixedFactory({ body: fixture("auth-me-profile.json") }, { body: fixture("usage.json") });
    try {
      writeSession({ bearerToken: jwt({ sub: "user_01OTHERSUBJECT0000000000000", exp: 4_102_444_800 }) });
      const usage = await factory({ simulator });
      expect(usage).toMatchObject({ ok: true, plan: "Factory Enterprise" });
      expect(bodies).toEqual([
        { useCache: true, userId: "user_01OTHERSUBJECT0000000000000" },
        { useCache: true, userId: FACTORY_SIM.userId },
      ]);
    } finally {
      await simulator.stop();
    }
  });
});

describe("factory keeps every token and cookie to the secret store and the session file", () => {
  const SECRETS = [
    FACTORY_SIM.sessionCookie,
    FACTORY_SIM.bearer,
    FACTORY_SIM.refreshToken,
    FACTORY_SIM.mintedBearer,
    FACTORY_SIM.rotatedRefreshToken,
  ];
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));

  it.each(["echo_headers", "echo_headers_ok", "ok"])("never prints one, and caches none (%s)", async (scenario) => {
    sim.sim.setScenario("factory", scenario);
    writeSession({ cookies: [sessionCookie()], bearerToken: FACTORY_SIM.bearer, refreshToken: FACTORY_SIM.refreshToken });
    const doc = await factoryCore().usage.usage({ providers: ["factory"], status: true });
    const text = JSON.stringify(doc);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    for (const file of files(home).filter((f) => f !== sessionFile())) {
      const content = readFileSync(file, "utf8");
      for (const secret of SECRETS) expect(content, file).not.toContain(secret);
    }
  });
});

describe("factory status page", () => {
  it("is polled as a Statuspage: indicator, description and incidents", async () => {
    sim.sim.setScenario("status-factory", "incident");
    const report = await factoryCore().status.report("factory");
    expect(report).toMatchObject({ id: "factory", kind: "statuspage", url: "https://status.factory.ai", error: null });
    expect(report.status?.indicator).not.toBe("none");
    expect(report.status?.incidents.length).toBeGreaterThan(0);
  });
});

/** Seconds from the Unix epoch to 2001-01-01, where Safari counts from. */
const MAC_EPOCH = 978_307_200;

/** Safari's Cookies.binarycookies with one page, as the reader's tests write it (big-endian header, little-endian records). */
function binaryCookies(cookies: { domain: string; name: string; value: string }[]): Buffer {
  const records = cookies.map(({ domain, name, value }) => {
    const strings = [domain, name, "/", value].map((text) => Buffer.concat([Buffer.from(text, "utf8"), Buffer.from([0])]));
    const header = Buffer.alloc(56);
    let at = 56;
    strings.forEach((bytes, i) => {
      header.writeUInt32LE(at, 16 + 4 * i); // domain, name, path, value
      at += bytes.length;
    });
    header.writeUInt32LE(at, 0);
    header.writeUInt32LE(0x5, 8); // secure, HttpOnly
    header.writeDoubleLE(FUTURE - MAC_EPOCH, 40);
    return Buffer.concat([header, ...strings]);
  });
  const pageHeader = Buffer.alloc(8 + 4 * records.length + 4);
  pageHeader.writeUInt32BE(0x00000100, 0);
  pageHeader.writeUInt32LE(records.length, 4);
  let offset = pageHeader.length;
  records.forEach((record, i) => {
    pageHeader.writeUInt32LE(offset, 8 + 4 * i);
    offset += record.length;
  });
  const page = Buffer.concat([pageHeader, ...records]);
  const head = Buffer.alloc(12);
  head.write("cook", 0, "latin1");
  head.writeUInt32BE(1, 4);
  head.writeUInt32BE(page.length, 8);
  return Buffer.concat([head, page]);
}

function writeSafariCookies(cookies: { domain: string; name: string; value: string }[]): void {
  const dir = join(home, "Library", "Containers", "com.apple.Safari", "Data", "Library", "Cookies");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "Cookies.binarycookies"), binaryCookies(cookies));
}

interface Db {
  exec(sql: string): void;
  prepare(sql: string): { run(...params: unknown[]): void };
  close(): void;
}
const Database = createRequire(import.meta.url)("better-sqlite3") as new (path: string) => Db;

/** Safari's Local Storage of https://app.factory.ai: the `origin` file (WTF::Persistence) and ItemTable with UTF-16LE values. */
function writeSafariLocalStorage(items: Record<string, string>): void {
  const dir = join(
    home,
    "Library",
    "Containers",
    "com.apple.Safari",
    "Data",
    "Library",
    "WebKit",
    "WebsiteData",
    "Default",
    "top",
    "frame",
  );
  mkdirSync(join(dir, "LocalStorage"), { recursive: true });
  const text = (value: string) => {
    const head = Buffer.alloc(5);
    head.writeUInt32LE(value.length, 0);
    head[4] = 1; // 8-bit
    return Buffer.concat([head, Buffer.from(value, "latin1")]);
  };
  const origin = Buffer.concat([text("https"), text("app.factory.ai"), Buffer.from([0])]);
  writeFileSync(join(dir, "origin"), Buffer.concat([origin, origin]));
  const db = new Database(join(dir, "LocalStorage", "localstorage.sqlite3"));
  db.exec("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB NOT NULL ON CONFLICT FAIL)");
  const insert = db.prepare("INSERT INTO ItemTable (key, value) VALUES (?, ?)");
  for (const [key, value] of Object.entries(items)) insert.run(key, Buffer.from(value, "utf16le"));
  db.close();
}

describe("factory's Safari steps (macOS files, generated here as the Safari readers' tests do)", () => {
  it("step 6, Safari cookies: usage, then the cookies kept in the session file and the header in the secret store", async () => {
    writeSafariCookies([
      { domain: ".factory.ai", name: "wos-session", value: FACTORY_SIM.sessionCookie },
      { domain: "app.factory.ai", name: "theme", value: "dark" },
      { domain: ".example.com", name: "other", value: "elsewhere" },
    ]);
    const secrets = new MemorySecretStore();
    const usage = await factory({ platform: "darwin", secrets });
    expect(usage).toMatchObject({ ok: true, source: "web" });
    expect(usage.details).toContainEqual({ label: "Credential", value: "Step 6: Safari cookies (safari/Safari)" });
    expect(String(requests()[0]!.headers.cookie)).toContain(`wos-session=${FACTORY_SIM.sessionCookie}`);
    expect(String(requests()[0]!.headers.cookie)).not.toContain("other=");
    const stored = readSessionFile().cookies as Record<string, unknown>[];
    expect(stored.map((c) => [c.Name, c.Domain])).toEqual([
      ["wos-session", ".factory.ai"],
      ["theme", "app.factory.ai"],
    ]);
    expect(JSON.parse((await secrets.get("quotabar", "cookie:factory")) as string)).toMatchObject({ source: "safari/Safari" });
    // the next run answers from the cache (step 1) without reading Safari
    rmSync(join(home, "Library"), { recursive: true, force: true });
    const again = await factory({ platform: "darwin", secrets });
    expect(again.details).toContainEqual({ label: "Credential", value: "Step 1: cached cookie header" });
  });

  it("step 7, Safari's workos.com cookies minted into a token (useCookie, no refresh token)", async () => {
    writeSafariCookies([{ domain: ".workos.com", name: "wos-session", value: FACTORY_SIM.workosCookie }]);
    const usage = await factory({ platform: "darwin" });
    expect(usage).toMatchObject({ ok: true, source: "oauth" });
    expect(usage.details).toContainEqual({
      label: "Credential",
      value: "Step 7: Safari workos.com cookies, minted through WorkOS (safari/Safari)",
    });
    const mint = requests()[0]!;
    expect(`${mint.method} ${mint.origin}${mint.path}`).toBe(MINT);
    expect(mint.headers.cookie).toBe(`wos-session=${FACTORY_SIM.workosCookie}`);
    expect(JSON.parse(mint.body)).toEqual({ client_id: WORKOS_CLIENT_IDS[0], grant_type: "refresh_token", useCookie: true });
    expect(readSessionFile()).toEqual({ bearerToken: FACTORY_SIM.mintedBearer, refreshToken: FACTORY_SIM.rotatedRefreshToken });
  });

  it("step 5, Safari's Local Storage tokens", async () => {
    writeSafariLocalStorage({ "workos:refresh-token": FACTORY_SIM.refreshToken, unrelated: "x" });
    const usage = await factory({ platform: "darwin" });
    expect(usage).toMatchObject({ ok: true, source: "oauth" });
    expect(usage.details).toContainEqual({ label: "Credential", value: "Step 5: WorkOS tokens in Local Storage (safari/Safari)" });
    expect(JSON.parse(requests()[0]!.body)).toMatchObject({ refresh_token: FACTORY_SIM.refreshToken });
  });
});

describe("quotabar cookies factory: every step says what it found or why it was skipped", () => {
  /** The explanation reads the session file under the process's home (it hands the sources no environment). */
  async function explain(options: CoreOptions = {}) {
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      return (await factoryCore(options).explainCookies("factory"))!;
    } finally {
      process.env.HOME = saved;
    }
  }

  it("lists the nine steps in order, chooses the first with a credential, and shows no value", async () => {
    writeSession({ bearerToken: FACTORY_SIM.bearer, refreshToken: FACTORY_SIM.refreshToken });
    const secrets = new MemorySecretStore();
    await secrets.set(
      "quotabar",
      "cookie:factory",
      JSON.stringify({ header: `wos-session=${FACTORY_SIM.sessionCookie}`, source: "chrome/Default" }),
    );
    const explained = await explain({ secrets });
    const steps = explained.notes.filter((n) => n.browser.startsWith("step "));
    expect(steps.map((n) => [n.browser, n.outcome])).toEqual([
      ["step 1", "skipped"],
      ["step 2", "nothing"],
      ["step 3", "chosen"],
      ["step 4", "found"],
      ["step 5", "nothing"],
      ["step 6", "nothing"],
      ["step 7", "nothing"],
      ["step 8", "nothing"],
      ["step 9", "nothing"],
    ]);
    expect(steps[0]!.cookieNames).toEqual(["wos-session"]);
    expect(steps[3]!.detail).toContain("tried when the steps before it give no usage");
    expect(explained.chosen).toMatchObject({ browser: "step 3", outcome: "chosen" });
    expect(explained.notes).toContainEqual(expect.objectContaining({ browser: "safari", outcome: "not-installed" }));
    const chromeFirefox = process.platform === "linux" ? ["chrome", "chromium", "firefox"] : ["chrome", "firefox"];
    expect(explained.queries.map((q) => q.browsers)).toEqual([["safari"], ["safari"], chromeFirefox, chromeFirefox]);
    const text = JSON.stringify(explained);
    for (const secret of [FACTORY_SIM.bearer, FACTORY_SIM.refreshToken, FACTORY_SIM.sessionCookie]) expect(text).not.toContain(secret);
    expect(requests()).toEqual([]);
    // explaining wrote nothing
    expect(readSessionFile()).toEqual({ bearerToken: FACTORY_SIM.bearer, refreshToken: FACTORY_SIM.refreshToken });
  });

  it("says why the chain is skipped with cookieSource manual, and why a session file is unusable", async () => {
    writeSession("[not json");
    const unreadable = await explain();
    expect(unreadable.notes.find((n) => n.browser === "step 2")).toMatchObject({ outcome: "error" });
    expect(unreadable.notes.find((n) => n.browser === "step 2")?.detail).toContain("factory-session.json cannot be read");
    const manual = await explain({ entry: { cookieSource: "manual" } });
    expect(manual.notes.filter((n) => n.browser.startsWith("step "))).toEqual([
      { browser: "step 1", outcome: "skipped", detail: 'cookieSource is "manual": steps 1 to 9 are not tried' },
    ]);
  });
});
