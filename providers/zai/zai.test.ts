import { describe, expect, it } from "vitest";
import type { CredentialContext } from "../../ports/fetch-context.js";
import { useSimulator } from "../../test/helpers/harness.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { zaiSnapshot, type ZaiLimit } from "./policy.js";
import { ZAI_TEST_KEY } from "./simulator.js";
import { zaiQuotaUrl, zaiRegion } from "./wire.js";

const sim = useSimulator();

/** The zai entry of the usage document, with the simulated upstream playing `scenario`. */
async function zaiIn(scenario: string, env: Record<string, string | undefined> = {}) {
  sim.sim.setScenario("zai", scenario);
  const doc = await sim.quotabar(env).usage({ providers: ["zai"] });
  return doc.providers[0]!;
}

/** The 5-hour tokens window both the current and the older answer carry. */
const FIVE_HOUR_TOKENS = {
  label: "Tokens",
  usedPercent: 29.32,
  used: 23456789,
  limit: 80000000,
  unit: "tokens",
  windowMinutes: 300,
  resetsAt: "2026-11-24T12:00:00.000Z",
  note: "5 hours window",
};

describe("zai against the simulator", () => {
  it("shows today's 5-hour window as primary, the weekly one as secondary, MCP in details and the plan from level", async () => {
    const usage = await zaiIn("ok");
    expect(usage).toMatchObject({ ok: true, source: "api", plan: "Pro" });
    expect(usage.primary).toMatchObject(FIVE_HOUR_TOKENS);
    expect(usage.secondary).toMatchObject({
      label: "Weekly tokens",
      usedPercent: 31.25,
      used: 125000000,
      limit: 400000000,
      unit: "tokens",
      windowMinutes: 10080,
      resetsAt: "2026-11-30T00:00:00.000Z",
      note: "1 week window",
    });
    expect(usage.details).toEqual([
      { label: "Tokens", value: "23.5M / 80M (56.5M remaining)" },
      { label: "Weekly tokens", value: "125M / 400M (275M remaining)" },
      { label: "MCP", value: "31.2% used, 312 / 1,000 (688 remaining), Monthly, resets 2026-12-01T00:00:00.000Z" },
      { label: "MCP details", value: "search-prime: 250, web-reader: 62" },
    ]);
    const request = sim.sim.requests.at(-1)!;
    expect(request.origin).toBe("https://api.z.ai");
    expect(request.path).toBe("/api/monitor/usage/quota/limit");
    expect(request.headers.authorization).toBe(`Bearer ${ZAI_TEST_KEY}`);
  });

  it("keeps the older one-window answer: tokens primary, the MCP window secondary, the plan from planName", async () => {
    const usage = await zaiIn("one_window");
    expect(usage).toMatchObject({ ok: true, plan: "GLM Coding Pro" });
    expect(usage.primary).toMatchObject(FIVE_HOUR_TOKENS);
    expect(usage.secondary).toMatchObject({
      label: "MCP",
      usedPercent: 31.2,
      used: 312,
      limit: 1000,
      unit: "calls",
      // monthly: November, the calendar month up to the reset
      windowMinutes: 30 * 1440,
      resetsAt: "2026-12-01T00:00:00.000Z",
      note: "Monthly",
    });
    expect(usage.details).toEqual([
      { label: "Tokens", value: "23.5M / 80M (56.5M remaining)" },
      { label: "MCP", value: "312 / 1,000 (688 remaining)" },
      { label: "MCP details", value: "search-prime: 250, web-reader: 62" },
    ]);
  });

  it("reads credit windows like token windows, shortest first, from an answer without msg", async () => {
    const usage = await zaiIn("credits");
    expect(usage).toMatchObject({ ok: true, plan: "Max" });
    expect(usage.primary).toMatchObject({
      label: "Credits",
      usedPercent: 12,
      used: null,
      limit: null,
      unit: "credits",
      windowMinutes: 300,
      resetsAt: "2026-11-20T17:00:00.000Z",
    });
    expect(usage.secondary).toMatchObject({ label: "Weekly credits", usedPercent: 25, used: 500, limit: 2000, windowMinutes: 10080 });
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

  it("fails with a parse error naming what is missing when there are no limits, instead of a 0 % meter", async () => {
    const usage = await zaiIn("no_limits");
    expect(usage).toMatchObject({ ok: false, primary: null, secondary: null });
    expect(usage.error).toMatchObject({
      code: "parse",
      message: "Failed to parse z.ai response: no TOKENS_LIMIT, CREDIT_LIMIT or TIME_LIMIT entry in data.limits",
    });
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
});

describe("zai policy", () => {
  const fiveHours: ZaiLimit = { type: "TOKENS_LIMIT", unit: 3, number: 5, percentage: 10, nextResetTime: 1795521600000 };
  const weekly: ZaiLimit = { type: "TOKENS_LIMIT", unit: 6, number: 1, percentage: 40 };
  const mcp: ZaiLimit = { type: "TIME_LIMIT", unit: 5, number: 1, percentage: 5 };
  const snapshot = (...limits: ZaiLimit[]) => zaiSnapshot({ limits, plan: null });

  it("refuses to invent a meter when no recognised limit is present", () => {
    for (const limits of [
      [],
      [
        { ...weekly, type: "BALANCE_LIMIT" },
        { ...weekly, type: "constructor" },
      ],
    ]) {
      expect(() => snapshot(...limits)).toThrow(
        expect.objectContaining({ code: "parse", message: expect.stringContaining("no TOKENS_LIMIT, CREDIT_LIMIT or TIME_LIMIT") }),
      );
    }
  });

  it("makes the shortest window primary and the longest secondary whatever their order", () => {
    const result = snapshot(weekly, mcp, fiveHours);
    expect(result.primary).toMatchObject({ label: "Tokens", usedPercent: 10, windowMinutes: 300 });
    expect(result.secondary).toMatchObject({ label: "Weekly tokens", usedPercent: 40, windowMinutes: 10080 });
    expect(result.details).toEqual([{ label: "MCP", value: "5% used, Monthly" }]);
  });

  it("lists windows between the shortest and the longest in details", () => {
    const daily: ZaiLimit = { type: "CREDIT_LIMIT", unit: 1, number: 1, usage: 100, currentValue: 30, remaining: 70, percentage: 30 };
    const result = snapshot(weekly, daily, fiveHours);
    expect(result.primary?.windowMinutes).toBe(300);
    expect(result.secondary?.windowMinutes).toBe(10080);
    expect(result.details).toEqual([{ label: "Daily credits", value: "30% used, 30 / 100 (70 remaining), 1 day window" }]);
  });

  it("puts a window of unknown length after the known ones", () => {
    const result = snapshot({ ...weekly, unit: 9, number: 2 }, fiveHours);
    expect(result.primary?.windowMinutes).toBe(300);
    expect(result.secondary).toMatchObject({ label: "Tokens", windowMinutes: null, note: null });
  });

  it("clamps the server percentage when it is the only measure", () => {
    expect(snapshot({ ...fiveHours, percentage: 140 }).primary?.usedPercent).toBe(100);
    expect(snapshot({ ...fiveHours, percentage: -3 }).primary?.usedPercent).toBe(0);
  });

  it("keeps the MCP bucket as secondary beside a single window, the last MCP entry winning", () => {
    const result = snapshot(mcp, fiveHours, { ...mcp, percentage: 60 });
    expect(result.secondary).toMatchObject({ label: "MCP", usedPercent: 60, windowMinutes: null, note: "Monthly" });
    // with its reset, the monthly bucket's window is the calendar month up to it (February: 28 days)
    const resetting = snapshot(fiveHours, { ...mcp, nextResetTime: Date.UTC(2026, 2, 1) });
    expect(resetting.secondary).toMatchObject({ resetsAt: "2026-03-01T00:00:00.000Z", windowMinutes: 28 * 1440 });
  });

  it("lists at most twelve models of a breakdown", () => {
    const usageDetails = Array.from({ length: 15 }, (_, i) => ({ modelCode: `tool-${String(i).padStart(2, "0")}`, usage: i }));
    const result = snapshot(fiveHours, { ...mcp, usageDetails });
    const breakdown = result.details.find((d) => d.label === "MCP details")!.value;
    expect(breakdown.split(", ")).toHaveLength(13);
    expect(breakdown).toMatch(/tool-11: 11, 3 more$/);
  });
});
