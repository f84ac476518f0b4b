import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  countProblem,
  leftProblem,
  meterPercent,
  meterPercentFromLeft,
  overQuotaNote,
  percentProblem,
  toNumber,
} from "../../domain/coerce.js";
import { antigravitySnapshot } from "../../providers/antigravity/policy.js";
import { readQuota } from "../../providers/antigravity/quota.js";
import { jsonAt, textIn, useTamperedSimulator, type Edit } from "../helpers/tampered-simulator.js";

/**
 * One rule for readings out of range, for every provider (domain/coerce.ts, README "Security"): a
 * reading whose meaning is plain is shown as that meaning (more used than the whole: a full meter
 * with the overage in a note; more left than the whole: 0 % used); a value with no meaning (a
 * negative count, NaN, an infinity, a magnitude no quota has) is a parse error naming the field.
 */

const ROOT = join(import.meta.dirname, "..", "..");
const { withEdit } = useTamperedSimulator();

/** z.ai's first window as a percentage alone (its counts gone), at `percentage`. */
const zaiPercentOnly =
  (percentage: unknown): Edit =>
  (reply) => {
    const body = JSON.parse(reply.body) as { data: { limits: Record<string, unknown>[] } };
    const limit = body.data.limits[0]!;
    for (const key of ["usage", "currentValue", "remaining"]) delete limit[key];
    limit.percentage = percentage;
    reply.body = JSON.stringify(body);
  };

describe("the kit's rule", () => {
  it("shows more used than the whole as a full meter, with the overage in a note", () => {
    expect(meterPercent(150)).toBe(100);
    expect(meterPercent(37.5)).toBe(37.5);
    expect(overQuotaNote(150)).toBe("Over quota: 150% used");
    expect(overQuotaNote(300.004, " (3,000 of 1,000 requests)")).toBe("Over quota: 300% used (3,000 of 1,000 requests)");
    expect(overQuotaNote(100)).toBeNull();
    expect(percentProblem(150)).toBeNull();
  });

  it("shows more left than the whole as 0 % used, and less than nothing as a full meter", () => {
    expect(meterPercentFromLeft(120)).toBe(0);
    expect(meterPercentFromLeft(150)).toBe(0); // a remainingFraction of 1.5, times 100
    expect(meterPercentFromLeft(-20)).toBe(100);
    expect(meterPercentFromLeft(64)).toBe(36);
    expect([leftProblem(120), leftProblem(-4), leftProblem(1.5)]).toEqual([null, null, null]);
  });

  it("refuses a value with no meaning: negative used, NaN, an infinity, beyond 10^15", () => {
    for (const value of [-1, NaN, Infinity, -Infinity, 1e15 + 1, 1e300]) expect(countProblem(value)).not.toBeNull();
    for (const value of [NaN, Infinity, 1e16, -1e16]) expect(leftProblem(value)).not.toBeNull();
    expect(countProblem(1e15)).toBeNull();
    expect(toNumber("1e400")).toBeNull(); // numeric text that overflows is no number
  });
});

describe("more used than the whole, from an upstream: a full meter, never a parse error", () => {
  it("z.ai: a percentage of 150 without counts is 100 %, the 150 in a detail", async () => {
    const usage = await withEdit("zai", "/api/monitor/usage/quota/limit", zaiPercentOnly(150));
    expect(usage).toMatchObject({ ok: true, primary: { usedPercent: 100 } });
    expect(usage.details).toContainEqual({ label: usage.primary!.label, value: "Over quota: 150% used" });
  });

  it("opencode: a usagePercent of 150 is 100 %, the 150 in the meter's note", async () => {
    const usage = await withEdit("opencode", "/_server", textIn("usagePercent:17", "usagePercent:150"));
    expect(usage).toMatchObject({ ok: true, primary: { label: "5-hour", usedPercent: 100, note: "Over quota: 150% used" } });
  });

  it("ollama: a bar at 300 % is 100 %, the 300 in the meter's note", async () => {
    const usage = await withEdit("ollama", "/settings", textIn("41% used", "300% used"));
    expect(usage).toMatchObject({ ok: true, secondary: { label: "Weekly", usedPercent: 100, note: "Over quota: 300% used" } });
  });

  it("kimi: a 7-day ratio of 1.25 is 100 %, the 125 in the meter's note", async () => {
    const route = "/apiv2/kimi.gateway.membership.v2.MembershipService/GetSubscriptionStats";
    const usage = await withEdit("kimi", route, jsonAt(["ratelimitCode7d", "ratio"], 1.25));
    expect(usage).toMatchObject({ ok: true, tertiary: { label: "Code 7-day", usedPercent: 100, note: "Over quota: 125% used" } });
  });

  it.each([
    ["codex", "/backend-api/wham/usage", ["rate_limit", "secondary_window", "used_percent"], 133, "oauth"],
    ["cursor", "/api/usage-summary", ["individualUsage", "plan", "apiPercentUsed"], 100.7, undefined],
    ["claude", "/api/oauth/usage", ["seven_day", "utilization"], 130, "oauth"],
    ["gemini", "/v1internal:retrieveUserQuota", ["buckets", 0, "remainingFraction"], -0.38, undefined],
  ] as const)("%s: %s %j at %s is a full meter", async (id, route, path, value, source) => {
    const usage = await withEdit(id, route, jsonAt(path, value), source ? { source } : {});
    expect(usage.ok, JSON.stringify(usage.error)).toBe(true);
    expect([usage.primary, usage.secondary, usage.tertiary].some((meter) => meter?.usedPercent === 100)).toBe(true);
  });

  it("minimax: a remaining percent below zero is a full meter", async () => {
    const usage = await withEdit(
      "minimax",
      "/v1/token_plan/remains",
      jsonAt(["model_remains", 0, "current_interval_remaining_percent"], -4),
    );
    expect(usage).toMatchObject({ ok: true, primary: { usedPercent: 100 } });
  });
});

describe("more left than the whole, from an upstream: 0 % used, never a parse error", () => {
  it("copilot: percent_remaining 120 (360 of 300 left) is 0 % used", async () => {
    const premium = ["quota_snapshots", "premium_interactions"];
    const usage = await withEdit("copilot", "/copilot_internal/user", (reply) => {
      jsonAt([...premium, "percent_remaining"], 120)(reply);
      jsonAt([...premium, "remaining"], 360)(reply);
    });
    expect(usage).toMatchObject({ ok: true, primary: { usedPercent: 0, used: 0, limit: 300 } });
  });

  it("antigravity: a remainingFraction of 1.5 is 0 % used", () => {
    const body = readFileSync(join(ROOT, "providers", "antigravity", "fixtures", "user-status.json"), "utf8");
    const changed = body.replaceAll(/("remainingFraction"\s*:\s*)([0-9.]+)/g, "$11.5");
    expect(changed).not.toBe(body);
    const snapshot = antigravitySnapshot(readQuota("GetUserStatus", changed));
    expect(snapshot.primary).toMatchObject({ usedPercent: 0 });
  });
});

describe("a value with no meaning, from an upstream: a parse error naming the field", () => {
  const refused = async (id: string, route: string, edit: Edit, field: string) => {
    const usage = await withEdit(id, route, edit);
    expect(usage.ok, JSON.stringify(usage.primary)).toBe(false);
    expect(usage.error).toMatchObject({ code: "parse", message: expect.stringContaining(field) });
    expect(usage.primary).toBeNull();
  };

  it("z.ai: a limit beyond 10^15, a percentage written as 1e400", async () => {
    await refused("zai", "/api/monitor/usage/quota/limit", jsonAt(["data", "limits", 0, "usage"], 1e21), "limits[0].usage");
    await refused("zai", "/api/monitor/usage/quota/limit", zaiPercentOnly("1e400"), "limits[0].percentage");
  });

  it("openrouter: total credits of 1e300 (printed as $1e,+300 before)", async () => {
    await refused("openrouter", "/api/v1/credits", jsonAt(["data", "total_credits"], 1e300), "total_credits");
  });

  it("copilot: a percent_remaining of 1e300", async () => {
    const path = ["quota_snapshots", "premium_interactions", "percent_remaining"];
    await refused("copilot", "/copilot_internal/user", jsonAt(path, 1e300), "percent_remaining");
  });

  it("opencode: a usagePercent of 1e16 is no reading: the window is missing", async () => {
    await refused("opencode", "/_server", textIn("usagePercent:17", "usagePercent:1e16"), "rollingUsage");
  });
});
