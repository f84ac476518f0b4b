import { describe, expect, it } from "vitest";
import { fixturesOf } from "../../simulator/fixtures.js";
import { useSimulator } from "../../test/helpers/harness.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { descriptor } from "./descriptor.js";
import { kimik2Snapshot } from "./policy.js";
import { KIMIK2_TEST_KEY } from "./simulator.js";
import { kimik2Reading } from "./wire.js";

const sim = useSimulator();
const fixture = fixturesOf(import.meta.url);

async function kimik2(extra: Record<string, string | undefined> = {}, timeoutMs?: number) {
  const doc = await sim.quotabar(extra, timeoutMs).usage({ providers: ["kimik2"] });
  return doc.providers[0]!;
}

describe("kimik2 against the simulator", () => {
  it("reads consumed and remaining from the nested data object", async () => {
    const usage = await kimik2();
    expect(usage).toMatchObject({ ok: true, source: "api", plan: null, secondary: null, tertiary: null, error: null });
    expect(usage.primary).toEqual({
      label: "Credits",
      usedPercent: 12.5,
      used: 1250,
      limit: 10000,
      unit: "credits",
      unlimited: false,
      resetsAt: null,
      windowMinutes: null,
      note: null,
    });
    expect(usage.details).toEqual([
      { label: "Remaining", value: "8,750 credits" },
      { label: "Average tokens per request", value: "1,830" },
      { label: "Updated", value: "2026-03-10T09:15:00.000Z" },
    ]);
    const request = sim.sim.requests.at(-1)!;
    expect(request.origin).toBe("https://kimi-k2.ai");
    expect(request.path).toBe("/api/user/credits");
    expect(request.method).toBe("GET");
    expect(request.headers.authorization).toBe(`Bearer ${KIMIK2_TEST_KEY}`);
    expect(request.headers.accept).toBe("application/json");
  });

  it("takes the remaining credits from the X-Credits-Remaining header when the body has none", async () => {
    sim.sim.setScenario("kimik2", "header_remaining");
    const usage = await kimik2();
    expect(usage.primary).toMatchObject({ usedPercent: 20, used: 40, limit: 200, note: null });
    expect(usage.details).toContainEqual({ label: "Updated", value: new Date(1773140000000).toISOString() });
  });

  it("shows 0 % and no text for a fresh account with string zeros", async () => {
    sim.sim.setScenario("kimik2", "empty");
    const usage = await kimik2();
    expect(usage.ok).toBe(true);
    expect(usage.primary).toMatchObject({ usedPercent: 0, used: 0, limit: 0, note: null });
  });

  it("reports a rejected key as unauthorized without echoing it", async () => {
    sim.sim.setScenario("kimik2", "unauthorized");
    const usage = await kimik2();
    expect(usage.ok).toBe(false);
    expect(usage.error).toMatchObject({ code: "unauthorized", message: "Kimi K2 API error: HTTP 401" });
    expect(usage.error?.hint).toContain("KIMI_K2_API_KEY");
    expect(usage.error?.hint).toContain("quotabar config set-key kimik2 --stdin");
    expect(JSON.stringify(usage)).not.toContain(KIMIK2_TEST_KEY);
  });

  it("rejects a body whose root is not an object", async () => {
    sim.sim.setScenario("kimik2", "malformed");
    const usage = await kimik2();
    expect(usage.error).toMatchObject({ code: "parse", message: "Failed to parse Kimi K2 response: Root JSON is not an object." });
  });

  it("reads an error field inside an HTTP 200 as a rejected key, with its text, not as 0 % used", async () => {
    sim.sim.setScenario("kimik2", "error_200");
    const usage = await kimik2();
    expect(usage).toMatchObject({ ok: false, primary: null });
    expect(usage.error).toMatchObject({ code: "unauthorized", message: "Kimi K2 API error: Invalid API key" });
    expect(usage.error?.hint).toContain("quotabar config set-key kimik2 --stdin");
  });

  it("redacts the key when the error text echoes it", async () => {
    sim.sim.setScenario("kimik2", "error_200_echo");
    const usage = await kimik2();
    expect(usage.error).toMatchObject({ code: "unauthorized", message: "Kimi K2 API error: Invalid API key ***" });
    expect(JSON.stringify(usage)).not.toContain(KIMIK2_TEST_KEY);
  });

  it("reads another error field inside an HTTP 200 as an upstream error", async () => {
    sim.sim.setScenario("kimik2", "error_200_upstream");
    expect((await kimik2()).error).toMatchObject({
      code: "upstream",
      message: "Kimi K2 API error: Service temporarily unavailable, please retry later",
    });
  });

  it("fails an empty object or a body without credit fields as a parse error, not as 0 % used", async () => {
    for (const scenario of ["empty_object", "no_credit_fields"]) {
      sim.sim.setScenario("kimik2", scenario);
      const usage = await kimik2();
      expect(usage).toMatchObject({ ok: false, primary: null });
      expect(usage.error?.code).toBe("parse");
      expect(usage.error?.message).toContain("no credit field (consumed or remaining)");
    }
  });

  it("rejects a body that is not JSON", async () => {
    sim.sim.setScenario("kimik2", "not_json");
    expect((await kimik2()).error).toMatchObject({
      code: "parse",
      message: "Failed to parse Kimi K2 response: Root JSON is not an object.",
    });
  });

  it("maps a 500 to an upstream error", async () => {
    sim.sim.setScenario("kimik2", "upstream_500");
    expect((await kimik2()).error).toMatchObject({ code: "upstream", message: "Kimi K2 API error: HTTP 500" });
  });

  it("times out on a slow service", async () => {
    sim.sim.setScenario("kimik2", "slow");
    expect((await kimik2({}, 300)).error?.code).toBe("timeout");
  });

  it("is not configured without a key, and names the variables and how to store a key", async () => {
    const usage = await kimik2({ KIMI_K2_API_KEY: undefined });
    expect(usage.error).toMatchObject({ code: "not_configured", message: "Kimi K2 API key not found" });
    expect(usage.error?.hint).toContain("KIMI_K2_API_KEY");
    expect(usage.error?.hint).toContain("quotabar config set-key kimik2 --stdin");
    expect(sim.sim.requests).toHaveLength(0);
  });

  it("accepts the alternative variables KIMI_API_KEY and KIMI_KEY", async () => {
    expect((await kimik2({ KIMI_K2_API_KEY: undefined, KIMI_KEY: KIMIK2_TEST_KEY })).ok).toBe(true);
    expect((await kimik2({ KIMI_K2_API_KEY: undefined, KIMI_API_KEY: `"${KIMIK2_TEST_KEY}"` })).ok).toBe(true);
  });

  it("prefers the config apiKey over the environment", async () => {
    const cleanup = writeConfig(sim.home, { providers: [{ id: "kimik2", apiKey: KIMIK2_TEST_KEY }] });
    try {
      const usage = await kimik2({ KIMI_K2_API_KEY: "kk2-wrong-key-000000000" });
      expect(usage.ok).toBe(true);
      expect(sim.sim.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KIMIK2_TEST_KEY}`);
    } finally {
      cleanup();
    }
  });

  it("is an unofficial relay that is never enabled automatically", async () => {
    expect(descriptor).toMatchObject({ enabledByDefault: false, unofficial: true });
    expect(descriptor.name).toContain("unofficial");
    const doc = await sim.quotabar().usage();
    expect(doc.providers.map((p) => p.id)).not.toContain("kimik2");
  });
});

describe("kimik2 tolerant body search", () => {
  const read = (body: unknown, headers: Record<string, string> = {}) => kimik2Reading({ body: JSON.stringify(body), headers });

  it("reads a key named total as the consumed amount", () => {
    expect(read({ total: 30, creditsLeft: 70 })).toMatchObject({ consumed: 30, remaining: 70 });
  });

  it("lets a null at an earlier context block later contexts for that path", () => {
    // root.credits_remaining is null, so data.credits_remaining is not consulted; the next path is.
    expect(read({ credits_remaining: null, data: { credits_remaining: 5, available_credits: 9 } }).remaining).toBe(9);
  });

  it("searches result.usage and result.credits, and numeric strings", () => {
    expect(read({ result: { usage: { credits_consumed: "12.5" }, credits: { remaining_credits: "87.5" } } })).toMatchObject({
      consumed: 12.5,
      remaining: 87.5,
    });
  });

  it("prefers the body over the header, ignores a non-numeric header, and takes the header alone as an answer", () => {
    expect(read({ creditsRemaining: 3 }, { "x-credits-remaining": "100" }).remaining).toBe(3);
    expect(read({ creditsConsumed: 2 }, { "x-credits-remaining": "n/a" })).toMatchObject({ consumed: 2, remaining: 0 });
    expect(() => read({}, { "x-credits-remaining": "n/a" })).toThrow("no credit field");
    expect(read({}, { "x-credits-remaining": "160" })).toMatchObject({ consumed: 0, remaining: 160 });
  });

  it("takes the text of an error string or object, bounded, and ignores an empty error", () => {
    expect(() => read({ error: { msg: "token expired" } })).toThrow(expect.objectContaining({ code: "unauthorized" }));
    expect(() => read({ error: { code: "RATE_LIMIT" } })).toThrow("Kimi K2 API error: RATE_LIMIT");
    expect(() => read({ error: {} })).toThrow("Kimi K2 API error: an error without a message");
    expect(() => read({ error: "x".repeat(5000) })).toThrow(`Kimi K2 API error: ${"x".repeat(200)}`);
    expect(read({ error: null, credits_remaining: 5 }).remaining).toBe(5);
    expect(read({ error: "", credits_remaining: 5 }).remaining).toBe(5);
  });

  it("reads epoch seconds, ignores non-positive times, and falls back to now", () => {
    expect(read({ updatedAt: 1773140000, total: 1 }).updatedAt).toBe("2026-03-10T10:53:20.000Z");
    expect(read({ updated_at: 0, total: 1 }).updatedAt).toBeNull();
    const snapshot = kimik2Snapshot(read({ total: 1 }), new Date("2026-11-20T10:00:00Z"));
    expect(snapshot.details).toContainEqual({ label: "Updated", value: "2026-11-20T10:00:00.000Z" });
  });

  it("keeps the fixture shapes of the reference", () => {
    expect(kimik2Reading({ body: fixture("nested-data.json"), headers: {} })).toEqual({
      consumed: 1250,
      remaining: 8750,
      averageTokensPerRequest: 1830,
      updatedAt: "2026-03-10T09:15:00.000Z",
    });
  });
});
