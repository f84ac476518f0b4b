import { describe, expect, it } from "vitest";
import { useSimulator } from "../../test/helpers/harness.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { openrouterSnapshot } from "./policy.js";
import { OPENROUTER_TEST_KEY } from "./simulator.js";

const sim = useSimulator();

async function openrouter(extra: Record<string, string | undefined> = {}) {
  const doc = await sim.quotabar(extra).usage({ providers: ["openrouter"] });
  return doc.providers[0]!;
}

describe("openrouter against the simulator", () => {
  it("maps credit usage to primary, balance to details and the key limit to secondary", async () => {
    const usage = await openrouter();
    expect(usage).toMatchObject({ ok: true, source: "api", error: null, stale: false });
    expect(usage.primary).toMatchObject({ label: "Credits", usedPercent: 37.36, used: 22.4179, limit: 60, unit: "USD", resetsAt: null });
    expect(usage.primary?.note).toContain("60 s");
    expect(usage.details).toContainEqual({ label: "Balance", value: "$37.58" });
    expect(usage.details).toContainEqual({ label: "Rate limit", value: "200 requests / 10s" });
    expect(usage.secondary).toMatchObject({ label: "API key limit", usedPercent: 30, used: 7.5, limit: 25 });
    expect(usage.secondary?.note).toContain("$17.50/$25.00 left");
  });

  it("sends the key, X-Title (default quotabar) and HTTP-Referer only when set, and no title on /key", async () => {
    await openrouter({ OPENROUTER_HTTP_REFERER: "https://example.dev", OPENROUTER_X_TITLE: "My tool" });
    const [credits, key] = sim.sim.requests;
    expect(credits).toMatchObject({ path: "/api/v1/credits", origin: "https://openrouter.ai" });
    expect(credits!.headers.authorization).toBe(`Bearer ${OPENROUTER_TEST_KEY}`);
    expect(credits!.headers["x-title"]).toBe("My tool");
    expect(credits!.headers["http-referer"]).toBe("https://example.dev");
    expect(credits!.headers["user-agent"]).toMatch(/^quotabar\/\d+\.\d+\.\d+$/);
    expect(key!.path).toBe("/api/v1/key");
    expect(key!.headers["x-title"]).toBeUndefined();

    sim.sim.requests.length = 0;
    await openrouter();
    expect(sim.sim.requests[0]!.headers["x-title"]).toBe("quotabar");
    expect(sim.sim.requests[0]!.headers["http-referer"]).toBeUndefined();
  });

  it("never fails the provider when /key fails", async () => {
    sim.sim.setScenario("openrouter", "key_unavailable");
    const usage = await openrouter();
    expect(usage.ok).toBe(true);
    expect(usage.primary?.usedPercent).toBe(37.36);
    expect(usage.secondary).toBeNull();
    expect(usage.details).toContainEqual({ label: "API key limit", value: "API key limit unavailable right now" });
  });

  it("says when the key has no limit and keeps the rate limit as secondary", async () => {
    sim.sim.setScenario("openrouter", "no_key_limit");
    const usage = await openrouter();
    expect(usage.details).toContainEqual({ label: "API key limit", value: "No limit set for the API key" });
    expect(usage.secondary).toMatchObject({ label: "Rate limit", usedPercent: null, note: "200 requests / 10s" });
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
    const usage = await openrouter({ OPENROUTER_API_URL: `${sim.sim.url}/openrouter.ai/api/v1/`, QUOTABAR_ORIGIN_MAP: undefined });
    expect(usage.ok).toBe(true);
    expect(sim.sim.requests[0]!.path).toBe("/api/v1/credits");
  });

  it("reports a missing key as not_configured naming the variable and how to store a key", async () => {
    const usage = await openrouter({ OPENROUTER_API_KEY: undefined });
    expect(usage.error).toMatchObject({ code: "not_configured", message: "OpenRouter API key not configured" });
    expect(usage.error?.hint).toMatch(/quotabar config set-key openrouter --stdin.*OPENROUTER_API_KEY/);
  });
});

describe("openrouter policy", () => {
  it("clamps usage above the credits and prefers limit_remaining for the key", () => {
    const snapshot = openrouterSnapshot({
      totalCredits: 10,
      totalUsage: 12,
      key: { limit: 20, usage: 1, limitRemaining: 5, rateLimit: null },
    });
    expect(snapshot.primary?.usedPercent).toBe(100);
    expect(snapshot.details).toContainEqual({ label: "Balance", value: "$0.00" });
    expect(snapshot.secondary).toMatchObject({ used: 15, usedPercent: 75 });
  });
});
