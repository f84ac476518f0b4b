import { describe, expect, it } from "vitest";
import { useSimulator } from "../../test/helpers/harness.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { cookiePairs, normalizeCookieHeader } from "../kit/index.js";
import { KIMI_TIERS, kimiSnapshot } from "./policy.js";
import { KIMI_TEST_CLAIMS, KIMI_TEST_TOKEN } from "./simulator.js";
import { kimiAuthTokenFromText, kimiJwtClaims } from "./token.js";
import { kimiHeaders } from "./wire.js";

const sim = useSimulator();

async function kimi(extra: Record<string, string | undefined> = {}, timeoutMs?: number) {
  const doc = await sim.quotabar(extra, timeoutMs).usage({ providers: ["kimi"] });
  return doc.providers[0]!;
}

/** The usage of one simulator scenario. */
async function kimiIn(scenario: string, timeoutMs?: number) {
  sim.sim.setScenario("kimi", scenario);
  return kimi({}, timeoutMs);
}

async function withConfig<T>(entry: object, run: () => Promise<T>): Promise<T> {
  const cleanup = writeConfig(sim.home, { providers: [{ id: "kimi", ...entry }] });
  return run().finally(cleanup);
}

/** A request-counted meter as the document shows it. */
const requestMeter = (label: string, fields: object) => ({ label, unit: "requests", unlimited: false, note: null, ...fields });

describe("kimi against the simulator", () => {
  it("maps the weekly quota to primary and the 5-hour rate limit to secondary (Moderato)", async () => {
    const usage = await kimi();
    expect(usage).toMatchObject({ ok: true, source: "web", plan: "Moderato", tertiary: null, error: null });
    expect(usage.primary).toEqual(
      requestMeter("Weekly", { usedPercent: 29.83, used: 611, limit: 2048, resetsAt: "2026-03-16T00:00:00.000Z", windowMinutes: 10080 }),
    );
    const rateWindow = { windowMinutes: 300, note: "200 requests per 5 hours" };
    expect(usage.secondary).toEqual(
      requestMeter("5-hour", { usedPercent: 28.5, used: 57, limit: 200, resetsAt: "2026-03-10T16:41:07.118Z", ...rateWindow }),
    );
    expect(usage.details).toEqual([{ label: "Membership", value: "Moderato (99 CNY/month, 2048 requests/week)" }]);
  });

  it("sends the browser's request: POST, scope body, Bearer plus kimi-auth cookie, JWT claim headers", async () => {
    await kimi();
    const request = sim.sim.requests.at(-1)!;
    expect(request).toMatchObject({
      origin: "https://www.kimi.com",
      method: "POST",
      path: "/apiv2/kimi.gateway.billing.v1.BillingService/GetUsages",
    });
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

  it("labels the Andante tier and shows no secondary when the rate limits are null", async () => {
    const usage = await kimiIn("tier_andante");
    expect(usage.plan).toBe("Andante");
    expect(usage.primary).toMatchObject({ usedPercent: 0, used: 0, limit: 1024, note: null });
    expect(usage.secondary).toBeNull();
  });

  it("labels the Allegretto tier and clamps an exhausted quota at 100 %", async () => {
    const usage = await kimiIn("tier_allegretto");
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
    const usage = await withConfig({ tier: "moderato" }, () => kimi());
    expect(usage.plan).toBe("Moderato");
    expect(usage.primary).toMatchObject({ usedPercent: 14.65, used: 300, limit: 2048, resetsAt: "2026-11-23T00:00:00.000Z" });
    // The 5-hour window has no limit either: 200 requests per window for every tier.
    expect(usage.secondary).toMatchObject({
      usedPercent: 6,
      used: 12,
      limit: 200,
      windowMinutes: 300,
      resetsAt: "2026-11-20T14:00:00.000Z",
    });
  });

  it("without a limit and without a tier, shows the count but no percentage", async () => {
    const usage = await kimiIn("no_limit");
    expect(usage.plan).toBeNull();
    expect(usage.primary).toMatchObject({ usedPercent: null, used: 300, limit: null, note: "300 requests" });
  });

  it("fails with a parse error when the coding scope is absent", async () => {
    const usage = await kimiIn("other_scope");
    expect(usage.error).toMatchObject({
      code: "parse",
      message: "Failed to parse Kimi usage data: FEATURE_CODING scope not found in response",
    });
  });

  it("names the bad field of a malformed body", async () => {
    const usage = await kimiIn("malformed");
    expect(usage.error?.code).toBe("parse");
    expect(usage.error?.message).toContain("usages[0].detail.used");
  });

  it("reports a rejected token as unauthorized, with the spec's text and without the token", async () => {
    const usage = await kimiIn("unauthorized");
    expect(usage.error).toMatchObject({
      code: "unauthorized",
      message: "Kimi auth token is invalid or expired. Please refresh your token.",
    });
    expect(usage.error?.hint).toContain("KIMI_AUTH_TOKEN");
    expect(usage.error?.hint).toContain("quotabar config set-key kimi --stdin");
    expect(JSON.stringify(usage)).not.toContain(KIMI_TEST_TOKEN);
  });

  it("reports HTTP 403 as forbidden with the same advice", async () => {
    expect((await kimiIn("forbidden")).error).toMatchObject({
      code: "forbidden",
      message: "Kimi auth token is invalid or expired. Please refresh your token.",
    });
  });

  it("maps a 500 to upstream and a slow answer to timeout", async () => {
    expect((await kimiIn("upstream_500")).error).toMatchObject({ code: "upstream", message: "Kimi API error: HTTP 500" });
    expect((await kimiIn("slow", 300)).error?.code).toBe("timeout");
  });

  it("is not configured without any token, and says where to put one", async () => {
    const usage = await kimi({ KIMI_AUTH_TOKEN: undefined });
    expect(usage.error).toMatchObject({
      code: "not_configured",
      message: "Kimi auth token is missing. Please add your JWT token from the Kimi console.",
    });
    expect(usage.error?.hint).toContain("KIMI_AUTH_TOKEN");
    expect(usage.error?.hint).toContain("quotabar config set-key kimi --stdin");
    expect(usage.error?.hint).toContain("providers[kimi].cookieHeader");
    expect(sim.sim.requests).toHaveLength(0);
  });
});

describe("kimi credential chain", () => {
  it("uses the manual token in the config before the environment", async () => {
    const usage = await withConfig({ apiKey: KIMI_TEST_TOKEN }, () => kimi({ KIMI_AUTH_TOKEN: "eyJ.wrong.token" }));
    expect(usage.ok).toBe(true);
  });

  it("takes kimi-auth out of a pasted cURL command in the config cookie header", async () => {
    const curl = `curl 'https://www.kimi.com/apiv2/x' -H 'accept: */*' -H $'cookie: _ga=GA1.1; kimi-auth=${KIMI_TEST_TOKEN}; theme=dark' --compressed`;
    const usage = await withConfig({ cookieHeader: curl }, () => kimi({ KIMI_AUTH_TOKEN: undefined }));
    expect(usage.ok).toBe(true);
    expect(sim.sim.requests.at(-1)!.headers.cookie).toBe(`kimi-auth=${KIMI_TEST_TOKEN}`);
  });

  it("ignores the cookie header when the cookie source is off", async () => {
    const usage = await withConfig({ cookieSource: "off", cookieHeader: `kimi-auth=${KIMI_TEST_TOKEN}` }, () =>
      kimi({ KIMI_AUTH_TOKEN: undefined }),
    );
    expect(usage.error?.code).toBe("not_configured");
  });

  it("reads KIMI_MANUAL_COOKIE and a quoted KIMI_AUTH_TOKEN", async () => {
    expect((await kimi({ KIMI_AUTH_TOKEN: undefined, KIMI_MANUAL_COOKIE: `Cookie: kimi-auth=${KIMI_TEST_TOKEN}` })).ok).toBe(true);
    expect((await kimi({ KIMI_AUTH_TOKEN: `"${KIMI_TEST_TOKEN}"` })).ok).toBe(true);
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
    expect(kimiSnapshot({ weekly, rateLimit: null, declaredTier: allegretto }).plan).toBe("Andante");
    const derived = kimiSnapshot({ weekly: { ...weekly, limit: null }, rateLimit: null, declaredTier: null });
    expect(derived.primary).toMatchObject({ limit: 1024, usedPercent: 0.98 });
    expect(derived.plan).toBe("Andante");
  });
});
