import { describe, expect, it } from "vitest";
import type { CredentialContext } from "../../ports/fetch-context.js";
import { useSimulator } from "../../test/helpers/harness.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { compact } from "./policy.js";
import { ZAI_TEST_KEY } from "./simulator.js";
import { zaiQuotaUrl, zaiRegion } from "./wire.js";

const sim = useSimulator();

/** The zai entry of the usage document, with the simulated upstream playing `scenario`. */
async function zaiIn(scenario: string, env: Record<string, string | undefined> = {}) {
  sim.sim.setScenario("zai", scenario);
  const doc = await sim.quotabar(env).usage({ providers: ["zai"] });
  return doc.providers[0]!;
}

describe("zai against the simulator", () => {
  it("maps tokens to primary and the MCP window to secondary with resets and window", async () => {
    const usage = await zaiIn("ok");
    expect(usage).toMatchObject({ ok: true, source: "api", plan: "GLM Coding Pro" });
    expect(usage.primary).toMatchObject({
      label: "Tokens",
      usedPercent: 29.32,
      used: 23456789,
      limit: 80000000,
      windowMinutes: 300,
      resetsAt: "2026-11-24T12:00:00.000Z",
      note: "5 hours window",
    });
    expect(usage.secondary).toMatchObject({
      label: "MCP",
      usedPercent: 31.2,
      used: 312,
      limit: 1000,
      windowMinutes: null,
      resetsAt: "2026-12-01T00:00:00.000Z",
    });
    expect(usage.details).toContainEqual({ label: "Tokens", value: "23M / 80M (57M remaining)" });
    expect(usage.details).toContainEqual({ label: "MCP details", value: "search-prime: 250, web-reader: 62" });
    const request = sim.sim.requests.at(-1)!;
    expect(request.origin).toBe("https://api.z.ai");
    expect(request.path).toBe("/api/monitor/usage/quota/limit");
    expect(request.headers.authorization).toBe(`Bearer ${ZAI_TEST_KEY}`);
  });

  it("falls back to the server percentage when counters are missing, and orders entries by type", async () => {
    const usage = await zaiIn("sparse");
    expect(usage.primary).toMatchObject({ label: "Tokens", usedPercent: 7, windowMinutes: 300, resetsAt: "2026-03-14T14:53:20.000Z" });
    expect(usage.secondary).toMatchObject({ label: "MCP", usedPercent: 0 });
    expect(usage.plan).toBeNull();
  });

  it("shows no secondary when only the time limit is present", async () => {
    const usage = await zaiIn("time_only");
    expect(usage.primary).toMatchObject({ label: "MCP", usedPercent: 90 });
    expect(usage.secondary).toBeNull();
    expect(usage.plan).toBe("GLM Coding Lite");
  });

  it("gives a 0 % placeholder and the trimmed plan when there are no limits", async () => {
    const usage = await zaiIn("no_limits");
    expect(usage.primary).toMatchObject({ usedPercent: 0, resetsAt: null });
    expect(usage.plan).toBe("Lite");
  });

  it("reports the API-level error inside an HTTP 200 as unauthorized", async () => {
    const usage = await zaiIn("unauthorized");
    expect(usage.ok).toBe(false);
    expect(usage.error).toMatchObject({ code: "unauthorized", message: "z.ai API error: Authorization Token Missing" });
    expect(usage.error?.hint).toContain("Z_AI_API_KEY");
  });

  it("reports an empty body with the region hint", async () => {
    const usage = await zaiIn("empty");
    expect(usage.error).toMatchObject({
      code: "parse",
      message: expect.stringContaining("Empty response body (HTTP 200)"),
      hint: expect.stringContaining("providers[zai].region (e.g. bigmodel-cn)"),
    });
    expect(usage.error?.message).toContain("Global vs BigModel CN");
  });

  it("names the missing field of a malformed body", async () => {
    const usage = await zaiIn("malformed");
    expect(usage.error).toMatchObject({ code: "parse", message: expect.stringContaining("data.limits[0].number") });
  });

  it("says which variable and config field to set when no key is found", async () => {
    const usage = await zaiIn("ok", { Z_AI_API_KEY: undefined });
    expect(usage.error?.code).toBe("not_configured");
    expect(usage.error?.hint).toContain("Z_AI_API_KEY");
    expect(usage.error?.hint).toContain("quotabar config set-key zai");
    expect(sim.sim.requests).toHaveLength(0);
  });

  it("uses the China host for region bigmodel-cn", async () => {
    const removeConfig = writeConfig(sim.home, { providers: [{ id: "zai", region: "bigmodel-cn" }] });
    try {
      const usage = await zaiIn("ok");
      expect(usage.ok).toBe(true);
      expect(sim.sim.requests.at(-1)!.origin).toBe("https://open.bigmodel.cn");
    } finally {
      removeConfig();
    }
  });
});

describe("zai URL resolution", () => {
  const context = (env: Record<string, string>, region?: string) =>
    ({ env, entry: { id: "zai", ...(region ? { region } : {}) } }) as unknown as CredentialContext;

  it("prefers Z_AI_QUOTA_URL verbatim, then Z_AI_API_HOST, then the region host", () => {
    expect(zaiQuotaUrl(context({ Z_AI_QUOTA_URL: "https://gw.example.com/custom/quota" }))).toBe("https://gw.example.com/custom/quota");
    expect(zaiQuotaUrl(context({ Z_AI_API_HOST: "open.bigmodel.cn" }))).toBe("https://open.bigmodel.cn/api/monitor/usage/quota/limit");
    expect(zaiQuotaUrl(context({ Z_AI_API_HOST: "https://gw.example.com/api/coding" }))).toBe("https://gw.example.com/api/coding");
    expect(zaiQuotaUrl(context({}, "bigmodel-cn"))).toBe("https://open.bigmodel.cn/api/monitor/usage/quota/limit");
    expect(zaiQuotaUrl(context({}))).toBe("https://api.z.ai/api/monitor/usage/quota/limit");
  });

  it("refuses plain http overrides except on loopback", () => {
    expect(() => zaiQuotaUrl(context({ Z_AI_QUOTA_URL: "http://gw.example.com/q" }))).toThrow(/https/);
    expect(zaiQuotaUrl(context({ Z_AI_QUOTA_URL: "http://127.0.0.1:9/q" }))).toBe("http://127.0.0.1:9/q");
  });

  it("accepts China region aliases", () => {
    expect(zaiRegion("bigmodel-cn")).toBe("bigmodel-cn");
    expect(zaiRegion("China")).toBe("bigmodel-cn");
    expect(zaiRegion("global")).toBe("global");
    expect(zaiRegion("mars")).toBe("global");
  });

  it("formats compact numbers like the real client", () => {
    expect(compact(1_360_000)).toBe("1.4M");
    expect(compact(23_456_789)).toBe("23M");
    expect(compact(40_000_000)).toBe("40M");
    expect(compact(688)).toBe("688");
    expect(compact(2_500_000_000)).toBe("2.5B");
  });
});
