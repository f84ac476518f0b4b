import { describe, expect, it } from "vitest";
import { noBrowserAccess } from "../../adapters/browser/lazy-browser-access.js";
import { QuotabarError } from "../../domain/errors.js";
import { excerptOutsideFetch } from "../../domain/redact.js";
import type { FetchContext } from "../../ports/fetch-context.js";
import type { HttpResponse, ProviderRequest } from "../../ports/http-client.js";
import { fixturesOf } from "../../simulator/fixtures.js";
import { useSimulator } from "../../test/helpers/harness.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { activityDetails } from "./policy-activity.js";
import { nextReset, openrouterSnapshot, type OpenrouterKeyInfo } from "./policy.js";
import { OPENROUTER_TEST_KEY, OPENROUTER_TEST_MANAGEMENT_KEY } from "./simulator.js";
import { openrouterApi } from "./index.js";
import { keptInMemory } from "../../domain/kept-in-memory.js";

const sim = useSimulator();
const fixture = fixturesOf(import.meta.url);

async function openrouter(extra: Record<string, string | undefined> = {}) {
  const doc = await sim.quotabar(extra).usage({ providers: ["openrouter"] });
  return doc.providers[0]!;
}

const requestTo = (path: string) => sim.sim.requests.find((r) => r.path === path);

describe("openrouter against the simulator (today's shapes)", () => {
  it("maps credits to primary, the key budget to secondary, and spend, history and rate limit to details", async () => {
    const usage = await openrouter();
    expect(usage).toMatchObject({ ok: true, source: "api", error: null, stale: false, plan: null });
    expect(usage.primary).toMatchObject({ label: "Credits", usedPercent: 37.36, used: 22.4179, limit: 60, unit: "USD", resetsAt: null });
    expect(usage.primary?.note).toContain("60 s");
    expect(usage.secondary).toMatchObject({ label: "API key limit", usedPercent: 30, used: 7.5, limit: 25 });
    expect(usage.secondary?.note).toBe("$17.50/$25.00 left · rate limit 200 requests / 10s");
    expect(usage.secondary?.resetsAt).toMatch(/^\d{4}-\d{2}-01T00:00:00\.000Z$/);
    // a monthly budget: this calendar month, from its 1st to the reset on the next 1st
    const reset = new Date(usage.secondary?.resetsAt ?? "");
    const monthStart = Date.UTC(reset.getUTCFullYear(), reset.getUTCMonth() - 1, 1);
    expect(usage.secondary?.windowMinutes).toBe((reset.getTime() - monthStart) / 60_000);
    expect(usage.details).toEqual([
      { label: "Balance", value: "$37.58" },
      { label: "Credits used", value: "$22.42" },
      { label: "Credits total", value: "$60.00" },
      { label: "Key budget", value: "$25.00 per month" },
      { label: "Key remaining", value: "$17.50" },
      { label: "Key used", value: "$7.50" },
      { label: "Key limit resets", value: "monthly, on the 1st at 00:00 UTC" },
      { label: "Spent today", value: "$0.84" },
      { label: "Spent this week", value: "$3.10" },
      { label: "Spent this month", value: "$7.50" },
      { label: "Spent, last 30 days", value: "$6.30" },
      { label: "Daily average", value: "$0.21" },
      { label: "Busiest day", value: "$4.75 on 2026-03-02" },
      { label: "Rate limit", value: "200 requests / 10s" },
      { label: "Free models", value: "1,000 requests per day" },
    ]);
    expect(JSON.stringify(usage)).not.toContain(OPENROUTER_TEST_MANAGEMENT_KEY);
  });

  it("sends the key, X-Title (default quotabar) and HTTP-Referer only when set, no title on /key, the management key to /activity", async () => {
    await openrouter({ OPENROUTER_HTTP_REFERER: "https://example.dev", OPENROUTER_X_TITLE: "My tool" });
    const credits = requestTo("/api/v1/credits")!;
    expect(credits.origin).toBe("https://openrouter.ai");
    expect(credits.headers.authorization).toBe(`Bearer ${OPENROUTER_TEST_KEY}`);
    expect(credits.headers["x-title"]).toBe("My tool");
    expect(credits.headers["http-referer"]).toBe("https://example.dev");
    expect(credits.headers["user-agent"]).toMatch(/^quotabar\/\d+\.\d+\.\d+$/);
    expect(requestTo("/api/v1/key")!.headers["x-title"]).toBeUndefined();
    const activity = requestTo("/api/v1/activity")!;
    expect(activity.origin).toBe("https://openrouter.ai");
    expect(activity.headers.authorization).toBe(`Bearer ${OPENROUTER_TEST_MANAGEMENT_KEY}`);

    sim.sim.requests.length = 0;
    await openrouter();
    expect(requestTo("/api/v1/credits")!.headers["x-title"]).toBe("quotabar");
    expect(requestTo("/api/v1/credits")!.headers["http-referer"]).toBeUndefined();
  });

  it("counts the spend of the reset window when limit_remaining is absent", async () => {
    sim.sim.setScenario("openrouter", "window_usage");
    const usage = await openrouter();
    expect(usage.secondary).toMatchObject({ label: "API key limit", usedPercent: 64, used: 6.4, limit: 10, windowMinutes: 10080 });
    expect(new Date(usage.secondary!.resetsAt!).getUTCDay()).toBe(1);
    expect(usage.details).toContainEqual({ label: "Key budget", value: "$10.00 per week" });
    expect(usage.details).toContainEqual({ label: "Key limit resets", value: "weekly, Monday 00:00 UTC" });
  });

  it("says when the key has no limit, keeps the spend rows and the rate limit as secondary", async () => {
    sim.sim.setScenario("openrouter", "no_key_limit");
    const usage = await openrouter();
    expect(usage.details).toContainEqual({ label: "API key limit", value: "No limit set for the API key" });
    expect(usage.details).toContainEqual({ label: "Spent this month", value: "$3.02" });
    expect(usage.details.map((d) => d.label)).not.toContain("Key budget");
    expect(usage.secondary).toMatchObject({ label: "Rate limit", usedPercent: null, note: "200 requests / 10s" });
  });

  it("never fails the provider when /key fails, and says the key limit is unavailable", async () => {
    sim.sim.setScenario("openrouter", "key_unavailable");
    const usage = await openrouter();
    expect(usage.ok).toBe(true);
    expect(usage.primary?.usedPercent).toBe(37.36);
    expect(usage.secondary).toBeNull();
    expect(usage.details).toContainEqual({ label: "API key limit", value: "API key limit unavailable right now" });
  });

  it("reads a negative key limit as unavailable, never as no limit", async () => {
    sim.sim.setScenario("openrouter", "negative_key_limit");
    const usage = await openrouter();
    expect(usage.ok).toBe(true);
    expect(usage.secondary).toBeNull();
    expect(usage.details).toContainEqual({ label: "API key limit", value: "API key limit unavailable right now" });
    expect(usage.details).not.toContainEqual({ label: "API key limit", value: "No limit set for the API key" });
  });

  it("keeps the provider when /activity is refused, and says the history is unavailable", async () => {
    sim.sim.setScenario("openrouter", "activity_unavailable");
    const usage = await openrouter();
    expect(usage.ok).toBe(true);
    expect(usage.details).toContainEqual({ label: "Spend history", value: "30-day spend history unavailable right now" });
    expect(usage.details.map((d) => d.label)).not.toContain("Spent, last 30 days");
  });

  it("asks for no history without a management key", async () => {
    const usage = await openrouter({ OPENROUTER_MANAGEMENT_API_KEY: undefined });
    expect(usage.ok).toBe(true);
    expect(requestTo("/api/v1/activity")).toBeUndefined();
    expect(usage.details.map((d) => d.label)).not.toContain("Spend history");
    expect(usage.details.map((d) => d.label)).not.toContain("Spent, last 30 days");
  });

  it("fails a negative usage as a parse error naming the field instead of showing it", async () => {
    sim.sim.setScenario("openrouter", "negative_usage");
    const usage = await openrouter();
    expect(usage.error).toMatchObject({
      code: "parse",
      message: "Failed to parse OpenRouter response: data.total_usage: must not be negative (got -3.5)",
    });
  });

  it("handles a new account with no credits", async () => {
    sim.sim.setScenario("openrouter", "empty");
    const usage = await openrouter();
    expect(usage.primary).toMatchObject({ usedPercent: 0, used: 0, limit: 0 });
    expect(usage.details).toContainEqual({ label: "Balance", value: "$0.00" });
  });

  it("maps 401 to unauthorized with a hint about the key, never echoing it", async () => {
    sim.sim.setScenario("openrouter", "unauthorized");
    const usage = await openrouter();
    expect(usage.error).toMatchObject({ code: "unauthorized", message: "OpenRouter API error: HTTP 401" });
    expect(usage.error?.hint).toContain("OPENROUTER_API_KEY");
    expect(usage.error?.hint).not.toContain("***"); // the key-shape advice must survive redaction
    expect(JSON.stringify(usage)).not.toContain(OPENROUTER_TEST_KEY);
  });

  it("names the bad field of a malformed body", async () => {
    sim.sim.setScenario("openrouter", "malformed");
    const usage = await openrouter();
    expect(usage.error?.code).toBe("parse");
    expect(usage.error?.message).toContain("data.total_credits");
  });

  it("maps a persistent 500 to upstream after one retry", async () => {
    sim.sim.setScenario("openrouter", "upstream_500");
    const usage = await openrouter();
    expect(usage.error).toMatchObject({ code: "upstream", message: "OpenRouter API error: HTTP 500" });
    expect(sim.sim.requests.filter((r) => r.path === "/api/v1/credits")).toHaveLength(2);
  });

  it("prefers the config apiKey over the environment variable", async () => {
    const removeConfig = writeConfig(sim.home, { providers: [{ id: "openrouter", apiKey: ` "${OPENROUTER_TEST_KEY}" ` }] });
    try {
      const usage = await openrouter({ OPENROUTER_API_KEY: "sk-or-v1-wrong-key-from-env" });
      expect(usage.ok).toBe(true);
    } finally {
      removeConfig();
    }
  });

  it("honours OPENROUTER_API_URL", async () => {
    const usage = await openrouter({
      OPENROUTER_API_URL: `${sim.sim.url}/openrouter.ai/api/v1/`,
      OPENROUTER_MANAGEMENT_API_KEY: undefined,
      QUOTABAR_ORIGIN_MAP: undefined,
    });
    expect(usage.ok).toBe(true);
    expect(requestTo("/api/v1/credits")).toBeDefined();
  });

  it("reports a missing key as not_configured naming the variable and how to store a key", async () => {
    const usage = await openrouter({ OPENROUTER_API_KEY: undefined });
    expect(usage.error).toMatchObject({ code: "not_configured", message: "OpenRouter API key not configured" });
    expect(usage.error?.hint).toMatch(/quotabar config set-key openrouter --stdin.*OPENROUTER_API_KEY/);
  });
});

describe("openrouter against the simulator (v0.18 shapes)", () => {
  it("reads a key without reset window or spend fields as a lifetime budget", async () => {
    sim.sim.setScenario("openrouter", "legacy_key");
    const usage = await openrouter();
    expect(usage.secondary).toMatchObject({ label: "API key limit", usedPercent: 30, used: 7.5, limit: 25, resetsAt: null });
    expect(usage.details).toContainEqual({ label: "Key limit resets", value: "never" });
    expect(usage.details.map((d) => d.label)).not.toContain("Spent today");
  });

  it("reads a key without a limit", async () => {
    sim.sim.setScenario("openrouter", "legacy_no_key_limit");
    const usage = await openrouter();
    expect(usage.details).toContainEqual({ label: "API key limit", value: "No limit set for the API key" });
    expect(usage.secondary).toMatchObject({ label: "Rate limit", note: "200 requests / 10s" });
  });
});

/** A fetch context whose HTTP client is `answer`; what a strategy sees, without the network. */
function fakeContext(answer: (request: ProviderRequest) => Promise<HttpResponse>, env: Record<string, string> = {}): FetchContext {
  const signal = new AbortController().signal;
  return {
    env,
    entry: { id: "openrouter" },
    now: () => new Date(),
    sourceMode: "auto",
    processes: {} as FetchContext["processes"],
    browsers: noBrowserAccess(),
    kept: keptInMemory(),
    http: { request: answer, signal, excerpt: excerptOutsideFetch },
    signal,
    timeoutMs: 15_000,
  };
}

const ok = (body: string, url: string): HttpResponse => ({ status: 200, headers: {}, body, url });
const pathOf = (request: ProviderRequest) => new URL(request.url).pathname;
const BOTH_KEYS = { apiKey: OPENROUTER_TEST_KEY, managementKey: OPENROUTER_TEST_MANAGEMENT_KEY };

describe("openrouter requests", () => {
  it("sends /credits, /key and /activity together: /credits answers only once the others were asked", async () => {
    const asked = new Set<string>();
    let release: () => void = () => undefined;
    const othersAsked = new Promise<void>((resolve) => (release = resolve));
    const context = fakeContext(async (request) => {
      const path = pathOf(request);
      asked.add(path);
      if (asked.has("/api/v1/key") && asked.has("/api/v1/activity")) release();
      if (path === "/api/v1/credits") await othersAsked; // a sequential fetch would wait here forever
      const name = path.endsWith("credits") ? "credits.json" : path.endsWith("key") ? "key.json" : "activity.json";
      return ok(fixture(name), request.url);
    });
    const reading = await openrouterApi.fetch(BOTH_KEYS, context);
    expect(reading).toMatchObject({ totalCredits: 60, key: { limit: 25, limitReset: "monthly" } });
    expect(reading.activity).toHaveLength(3);
  });

  it("fails at once on a failed /credits, without waiting for a /key that never answers", async () => {
    const context = fakeContext(async (request) => {
      if (pathOf(request) === "/api/v1/credits") throw new QuotabarError("unauthorized", "OpenRouter API error: HTTP 401");
      return new Promise<never>(() => undefined);
    });
    await expect(openrouterApi.fetch(BOTH_KEYS, context)).rejects.toMatchObject({ code: "unauthorized" });
  });

  it("sends the management key only to the real host, whatever OPENROUTER_API_URL says", async () => {
    const urls: string[] = [];
    const context = fakeContext(
      async (request) => {
        urls.push(request.url);
        const name = request.url.endsWith("credits") ? "credits.json" : request.url.endsWith("key") ? "key.json" : "activity.json";
        return ok(fixture(name), request.url);
      },
      { OPENROUTER_API_URL: "https://gateway.example/openrouter/v1" },
    );
    await openrouterApi.fetch(BOTH_KEYS, context);
    expect(urls.sort()).toEqual([
      "https://gateway.example/openrouter/v1/credits",
      "https://gateway.example/openrouter/v1/key",
      "https://openrouter.ai/api/v1/activity",
    ]);
  });

  it("drops a deprecated rate_limit of an unknown shape or a placeholder count, and keeps the rest of /key", async () => {
    const key = (rateLimit: unknown) =>
      openrouterApi.fetch(
        { apiKey: OPENROUTER_TEST_KEY, managementKey: null },
        fakeContext(async (request) =>
          ok(
            request.url.endsWith("credits")
              ? fixture("credits.json")
              : JSON.stringify({ data: { limit: 5, usage: 1, rate_limit: rateLimit } }),
            request.url,
          ),
        ),
      );
    expect((await key({ requests: -1, interval: "10s" })).key).toMatchObject({ limit: 5, rateLimit: null });
    expect((await key("unlimited")).key).toMatchObject({ limit: 5, rateLimit: null });
  });
});

const KEY: OpenrouterKeyInfo = {
  limit: 20,
  usage: 11,
  limitRemaining: null,
  limitReset: null,
  usageDaily: 1,
  usageWeekly: 3,
  usageMonthly: 9,
  rateLimit: null,
};
const NOW = new Date("2026-03-11T15:30:00Z"); // a Wednesday

describe("openrouter policy", () => {
  const snapshot = (key: OpenrouterKeyInfo, totals = { totalCredits: 10, totalUsage: 12 }) =>
    openrouterSnapshot({ ...totals, key, activity: null }, NOW);

  it("clamps credit usage above the credits, and prefers limit_remaining for the key", () => {
    const result = snapshot({ ...KEY, limitRemaining: 5, limitReset: "monthly" });
    expect(result.primary?.usedPercent).toBe(100);
    expect(result.details).toContainEqual({ label: "Balance", value: "$0.00" });
    expect(result.secondary).toMatchObject({ used: 15, usedPercent: 75 });
  });

  it("takes the window's spend matching limit_reset, then the lifetime usage", () => {
    expect(snapshot({ ...KEY, limitReset: "daily" }).secondary?.used).toBe(1);
    expect(snapshot({ ...KEY, limitReset: "weekly" }).secondary?.used).toBe(3);
    expect(snapshot({ ...KEY, limitReset: "monthly" }).secondary?.used).toBe(9);
    expect(snapshot({ ...KEY, limitReset: "monthly", usageMonthly: null }).secondary?.used).toBe(11);
    expect(snapshot(KEY).secondary?.used).toBe(11);
  });

  it("reads an overdrawn limit_remaining as the whole budget spent", () => {
    expect(snapshot({ ...KEY, limitRemaining: -0.4 }).secondary).toMatchObject({ used: 20, usedPercent: 100 });
    expect(snapshot({ ...KEY, limitRemaining: -0.4 }).details).toContainEqual({ label: "Key remaining", value: "$0.00" });
  });

  it("passes negative credits and usage through for the core to refuse", () => {
    expect(snapshot(KEY, { totalCredits: -10, totalUsage: -2 }).primary).toMatchObject({ used: -2, limit: -10 });
  });

  it("resets at the next 00:00 UTC of the day, of Monday, of the 1st", () => {
    expect(nextReset("daily", NOW)).toBe("2026-03-12T00:00:00.000Z");
    expect(nextReset("weekly", NOW)).toBe("2026-03-16T00:00:00.000Z");
    expect(nextReset("weekly", new Date("2026-03-15T23:59:59Z"))).toBe("2026-03-16T00:00:00.000Z"); // Sunday
    expect(nextReset("weekly", new Date("2026-03-16T00:00:00Z"))).toBe("2026-03-23T00:00:00.000Z"); // Monday
    expect(nextReset("monthly", new Date("2026-12-31T23:00:00Z"))).toBe("2027-01-01T00:00:00.000Z");
  });

  it("gives the key budget's window: a day, a week, or the calendar month up to the reset", () => {
    expect(snapshot({ ...KEY, limitReset: "daily" }).secondary?.windowMinutes).toBe(1440);
    expect(snapshot({ ...KEY, limitReset: "weekly" }).secondary?.windowMinutes).toBe(10_080);
    // NOW is in March: 1 March to 1 April
    expect(snapshot({ ...KEY, limitReset: "monthly" }).secondary).toMatchObject({
      resetsAt: "2026-04-01T00:00:00.000Z",
      windowMinutes: 31 * 1440,
    });
    expect(snapshot(KEY).secondary).toMatchObject({ resetsAt: null, windowMinutes: null });
  });

  it("sums the 30-day history and names its busiest day", () => {
    expect(
      activityDetails([
        { date: "2026-03-01", usd: 1.5 },
        { date: "2026-03-02", usd: 4.75 },
      ]),
    ).toEqual([
      { label: "Spent, last 30 days", value: "$6.25" },
      { label: "Daily average", value: "$0.21" },
      { label: "Busiest day", value: "$4.75 on 2026-03-02" },
    ]);
    expect(activityDetails([])).toEqual([
      { label: "Spent, last 30 days", value: "$0.00" },
      { label: "Daily average", value: "$0.00" },
    ]);
  });
});
