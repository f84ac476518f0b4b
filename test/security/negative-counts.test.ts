import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { accountStatus } from "../../providers/augment/cli-output.js";
import { quotaReading } from "../../providers/jetbrains/quota-file.js";
import { usageLimitsOf } from "../../providers/kiro/usage-limits.js";
import { plainOutput, usageReading } from "../../providers/kiro/usage-text.js";
import { headerOf, jsonAt, textAt, textIn, useTamperedSimulator, type Edit } from "../helpers/tampered-simulator.js";

/**
 * An upstream count below zero (or a percent used below zero) is a parse error naming the field, for
 * every provider: never a meter clamped into range (what is *left* may go below zero: out-of-range.test.ts). Each case takes a provider's realistic answer,
 * as its simulator serves it, sets one counted field negative, and reads the provider through the
 * library; the providers read from local files or a CLI's output are read by their own readers.
 */

const ROOT = join(import.meta.dirname, "..", "..");
const fixture = (id: string, name: string) => readFileSync(join(ROOT, "providers", id, "fixtures", name), "utf8");

const simulated = useTamperedSimulator();
const { usageOf, withEdit } = simulated;

interface Case {
  id: string;
  route: string;
  edit: Edit;
  /** The field the error must name. */
  field: string;
  source?: string;
  scenario?: string;
}

type Where = Pick<Case, "id" | "route" | "source" | "scenario">;
type Path = readonly (string | number)[];

/** One case per `[path, value, field]`: the value set at that path of the answer on `where.route`. */
const jsonCases = (where: Where, sets: readonly [Path, unknown, string][]): Case[] =>
  sets.map(([path, value, field]) => ({ ...where, edit: jsonAt(path, value), field }));

/** One case per `[edit, field]`, for answers that are not JSON or a value that is not at a path. */
const editCases = (where: Where, edits: readonly [Edit, string][]): Case[] => edits.map(([edit, field]) => ({ ...where, edit, field }));

const COPILOT_PREMIUM = ["quota_snapshots", "premium_interactions"];
const ZAI_LIMITS = ["data", "limits"];
const WARP_USER = ["data", "user", "user"];
const KILO_CREDITS = [0, "result", "data", "json"];
const KILO_PASS = [1, "result", "data", "json", "subscription"];
const MINIMAX_ITEMS = ["model_remains"];
const AMP_TEXT = ["result", "displayText"];
const FACTORY_USAGE = ["usage"];

const CASES: Case[] = [
  ...jsonCases({ id: "copilot", route: "/copilot_internal/user" }, [
    [[...COPILOT_PREMIUM, "entitlement"], -300, "entitlement"],
    [[...COPILOT_PREMIUM, "overage_count"], -1, "overage_count"],
    // 128 still left beside it: no overage, an impossible percent
    [[...COPILOT_PREMIUM, "percent_remaining"], -42.7, "percent_remaining"],
  ]),
  ...jsonCases({ id: "openrouter", route: "/api/v1/credits" }, [
    [["data", "total_credits"], -60, "total_credits"],
    [["data", "total_usage"], -22.4, "total_usage"],
  ]),
  ...jsonCases({ id: "zai", route: "/api/monitor/usage/quota/limit" }, [
    [[...ZAI_LIMITS, 0, "usage"], -80000000, "limits[0].usage"],
    [[...ZAI_LIMITS, 0, "currentValue"], -1, "limits[0].currentValue"],
    [[...ZAI_LIMITS, 1, "remaining"], -5, "limits[1].remaining"],
    [[...ZAI_LIMITS, 2, "percentage"], -31, "limits[2].percentage"],
    [[...ZAI_LIMITS, 2, "usageDetails", 0, "usage"], -62, "usageDetails[0].usage"],
  ]),
  ...jsonCases({ id: "warp", route: "/graphql/v2" }, [
    [[...WARP_USER, "requestLimitInfo", "requestLimit"], -1500, "requestLimit"],
    [[...WARP_USER, "requestLimitInfo", "requestsUsedSinceLastRefresh"], -1, "requestsUsedSinceLastRefresh"],
    // -10 of 20 showed "30 / 20 credits"
    [[...WARP_USER, "bonusGrants", 0, "requestCreditsRemaining"], -10, "requestCreditsRemaining"],
    [[...WARP_USER, "bonusGrants", 0, "requestCreditsGranted"], -20, "requestCreditsGranted"],
  ]),
  // each route alone: the other (its answer untouched here) would otherwise stand in
  ...jsonCases({ id: "kimi", route: "/coding/v1/usages", source: "api" }, [
    [["usage", "limit"], -2048, "usage.limit"],
    [["usage", "used"], -611, "usage.used"],
    [["usage", "remaining"], -1, "usage.remaining"],
    [["limits", 0, "detail", "used"], -57, "limits[0].detail.used"],
  ]),
  ...jsonCases({ id: "kimi", route: "/apiv2/kimi.gateway.billing.v1.BillingService/GetUsages", source: "web" }, [
    [["usages", 0, "detail", "limit"], "-2048", "usages[0].detail.limit"],
  ]),
  ...jsonCases({ id: "kilo", route: "/api/trpc/user.getCreditBlocks,kiloPass.getState,user.getAutoTopUpPaymentMethod" }, [
    [[...KILO_CREDITS, "creditBlocks", 0, "balance_mUsd"], -18750000, "balance_mUsd"],
    [[...KILO_CREDITS, "creditBlocks", 1, "amount_mUsd"], -5000000, "amount_mUsd"],
    [[...KILO_PASS, "currentPeriodUsageUsd"], -12.4, "currentPeriodUsageUsd"],
    [[...KILO_PASS, "currentPeriodBaseCreditsUsd"], -49, "currentPeriodBaseCreditsUsd"],
  ]),
  ...jsonCases({ id: "minimax", route: "/v1/token_plan/remains" }, [
    [[...MINIMAX_ITEMS, 1, "current_interval_total_count"], -4000, "current_interval_total_count"],
    [[...MINIMAX_ITEMS, 1, "current_weekly_usage_count"], -26600, "current_weekly_usage_count"],
  ]),
  // showed 100 % and 0 %
  ...jsonCases({ id: "kimik2", route: "/api/user/credits" }, [
    [["data", "credits_remaining"], -7, "credits_remaining"],
    [["data", "total_credits_consumed"], -1e9, "total_credits_consumed"],
  ]),
  ...editCases({ id: "kimik2", route: "/api/user/credits", scenario: "header_remaining" }, [
    [headerOf("X-Credits-Remaining", "-160"), "X-Credits-Remaining"],
  ]),
  ...jsonCases({ id: "vertexai", route: "/v3/projects/acme-ml-prod/timeSeries" }, [
    [["timeSeries", 0, "points", 0, "value", "int64Value"], "-42", "int64Value"],
  ]),
  ...jsonCases({ id: "augment", route: "/api/credits" }, [
    [["usageUnitsConsumedThisBillingCycle"], -131600, "usageUnitsConsumedThisBillingCycle"],
    [["usageUnitsAvailable"], -450000, "usageUnitsAvailable"],
  ]),
  ...editCases({ id: "amp", route: "/api/internal", source: "cli" }, [
    [textAt(AMP_TEXT, "$1.66/$20", "$-1.66/$20"), "Amp Free line"],
    [textAt(AMP_TEXT, "Individual credits: $17.23", "Individual credits: -$17.23"), "Individual credits line"],
  ]),
  ...editCases({ id: "amp", route: "/settings", source: "web" }, [
    [textIn("used:262.5", "used:-262.5"), "freeTierUsage.used"],
    [textIn("quota:1000", "quota:-1000"), "freeTierUsage.quota"],
  ]),
  ...jsonCases({ id: "factory", route: "/api/organization/subscription/usage" }, [
    [[...FACTORY_USAGE, "standard", "userTokens"], -6400000, "user_tokens"],
    [[...FACTORY_USAGE, "premium", "totalAllowance"], -1000000, "total_allowance"],
    [[...FACTORY_USAGE, "standard", "usedRatio"], -0.32, "used_ratio"],
  ]),
  ...editCases({ id: "opencode", route: "/_server" }, [[textIn("usagePercent:17", "usagePercent:-17"), "rollingUsage"]]),
  // the sign-in route alone: auto would hand a failure over to Codex's session log
  ...jsonCases({ id: "codex", route: "/backend-api/wham/usage", source: "oauth" }, [
    [["rate_limit", "primary_window", "used_percent"], -2, "rate_limit.primary_window.used_percent"],
    [["credits", "balance"], "-5", "credits.balance"],
  ]),
  ...jsonCases({ id: "cursor", route: "/api/usage-summary" }, [
    [["individualUsage", "plan", "totalPercentUsed"], -0.44, "individualUsage.plan.totalPercentUsed"],
    [["individualUsage", "plan", "limit"], -2000, "individualUsage.plan.limit"],
    [["individualUsage", "onDemand", "used"], -1, "individualUsage.onDemand.used"],
  ]),
  ...jsonCases({ id: "claude", route: "/api/oauth/usage", source: "oauth" }, [
    [["five_hour", "utilization"], -12.5, "five_hour.utilization"],
    [["extra_usage", "used_credits"], -520, "extra_usage.used_credits"],
  ]),
  ...jsonCases({ id: "claude", route: "/api/organizations/org-chat/usage", source: "web" }, [
    [["five_hour", "utilization"], -9, "five_hour.utilization"],
  ]),
  ...jsonCases({ id: "gemini", route: "/v1internal:retrieveUserQuota", scenario: "standard" }, [
    [["buckets", 1, "remainingAmount"], "-750", "buckets[1].remainingAmount"],
  ]),
  ...editCases({ id: "ollama", route: "/settings" }, [[textIn("12.4% used", "-12.4% used"), "Session usage"]]),
];

describe("a negative count from an upstream", () => {
  it("is refused for every provider that reads an answer over HTTP", () => {
    const httpProviders = simulated.sim.providers.filter((p) => p.origins.length > 0 && !p.id.startsWith("status-")).map((p) => p.id);
    expect(new Set(CASES.map((c) => c.id))).toEqual(new Set(httpProviders));
  });

  it.each(CASES.map((c) => [`${c.id}: ${c.field}${c.source ? ` (${c.source})` : ""}`, c] as const))(
    "%s is a parse error naming the field, never a meter",
    async (_name, { id, route, edit, field, source, scenario }) => {
      const usage = await withEdit(id, route, edit, { source, scenario });
      expect(usage.ok, `${id}: ${JSON.stringify(usage.primary)}`).toBe(false);
      expect(usage.error?.code).toBe("parse");
      expect(usage.error?.message).toContain(field);
      expect(usage.primary).toBeNull();
    },
    20_000,
  );
});

describe("a negative count in a best-effort extra", () => {
  // these calls only add details: any failure of theirs leaves them out, and the provider stands
  it("openrouter: a negative key limit leaves the key meter out", async () => {
    expect((await usageOf("openrouter")).secondary?.label).toBe("API key limit");
    const usage = await withEdit("openrouter", "/api/v1/key", jsonAt(["data", "limit"], -25));
    expect(usage.ok).toBe(true);
    expect(usage.secondary).toBeNull();
    expect(usage.details).toContainEqual({ label: "API key limit", value: "API key limit unavailable right now" });
  });

  it("openrouter: a negative day of spend leaves the history out", async () => {
    const usage = await withEdit("openrouter", "/api/v1/activity", jsonAt(["data", 0, "usage"], -1.2));
    expect(usage.ok).toBe(true);
    expect(usage.details).toContainEqual({ label: "Spend history", value: "30-day spend history unavailable right now" });
  });

  it("kimi: a negative membership ratio leaves the 7-day meter out", async () => {
    const route = "/apiv2/kimi.gateway.membership.v2.MembershipService/GetSubscriptionStats";
    expect((await usageOf("kimi")).tertiary?.label).toBe("Code 7-day");
    const usage = await withEdit("kimi", route, jsonAt(["ratelimitCode7d", "ratio"], -0.62));
    expect(usage.ok).toBe(true);
    expect(usage.tertiary).toBeNull();
  });

  it("cursor: a negative request count leaves the request allowance out", async () => {
    expect((await usageOf("cursor", { scenario: "request_plan" })).primary?.label).toBe("Requests");
    const usage = await withEdit("cursor", "/api/usage", jsonAt(["gpt-4", "numRequestsTotal"], -422), { scenario: "request_plan" });
    expect(usage.ok).toBe(true);
    expect(usage.primary?.label).toBe("Total");
  });

  it("opencode: a negative month of spend leaves the billing out", async () => {
    const before = await usageOf("opencode");
    const usage = await withEdit("opencode", "/_server", textIn("monthlyUsage:412500000", "monthlyUsage:-412500000"));
    expect(usage.ok).toBe(true);
    expect(usage.details.length).toBeLessThan(before.details.length);
  });
});

describe("what may legitimately go below zero", () => {
  it("copilot: remaining and percent_remaining past the quota read as over quota", async () => {
    const usage = await usageOf("copilot", { scenario: "over_quota" });
    expect(usage.ok).toBe(true);
    expect(usage.primary?.note).toMatch(/^Over quota/);
  });

  it("augment: usageUnitsRemaining past the allowance reads as an overage", async () => {
    const usage = await usageOf("augment", { scenario: "overage", source: "web" });
    expect(usage.ok).toBe(true);
    expect(usage.primary).toMatchObject({ used: 451250, limit: 450000, usedPercent: 100 });
  });
});

describe("a negative count read from local files or a CLI", () => {
  const parseErrorNaming = (field: string) => expect.objectContaining({ code: "parse", message: expect.stringContaining(field) });

  /** The IDE's file with the first `"<field>": "<n>"` of its option `option` made negative. */
  const jetbrainsFile = (option: string, field: string) => {
    const xml = fixture("jetbrains", "intellij-idea.xml");
    const changed = xml.replace(new RegExp(`(name="${option}"[^>]*?&quot;${field}&quot;:\\s*&quot;)(\\d)`), "$1-$2");
    expect(changed).not.toBe(xml);
    return changed;
  };

  it.each(["current", "maximum"])("jetbrains: quotaInfo.%s", (field) => {
    expect(() => quotaReading(jetbrainsFile("quotaInfo", field), "IntelliJ IDEA")).toThrow(parseErrorNaming(`quotaInfo.${field}`));
  });

  it("jetbrains: nextRefill's amount", () => {
    expect(() => quotaReading(jetbrainsFile("nextRefill", "amount"), "IntelliJ IDEA")).toThrow(
      parseErrorNaming("nextRefill.tariff.amount"),
    );
  });

  it.each([
    ["legacy.txt", /\((\d)/, "(-$1", "credits covered used"],
    ["legacy.txt", /(of\s+)(\d)/, "$1-$2", "credits covered total"],
    ["legacy.txt", /(Bonus credits:\s*)(\d)/i, "$1-$2", "bonus credits used"],
    ["boxed.txt", /(█\s*)(\d+%)/, "$1-$2", "usage percent"],
    ["estimated-usage.txt", /(Credits used:[ \t]*)(\d)/i, "$1-$2", "credits used"],
  ] as const)("kiro-cli: %s with a negative figure (%s)", (name, pattern, replacement, field) => {
    const text = plainOutput(fixture("kiro", name));
    const changed = text.replace(pattern, replacement);
    expect(changed).not.toBe(text);
    expect(() => usageReading(changed)).toThrow(parseErrorNaming(field));
  });

  it("kiro: a negative count in the logged answer", () => {
    const line = fixture("kiro", "q-client.log")
      .split("\n")
      .find((l) => l.includes('"GetUsageLimitsCommand"'))!;
    const output = (JSON.parse(line.slice(line.indexOf("{"))) as { output: { usageBreakdownList: Record<string, unknown>[] } }).output;
    const credit = output.usageBreakdownList.find((entry) => entry.resourceType === "CREDIT")!;
    const key = "currentUsageWithPrecision" in credit ? "currentUsageWithPrecision" : "currentUsage";
    credit[key] = -5;
    expect(() => usageLimitsOf(output)).toThrow(parseErrorNaming(key));
  });

  it.each([
    ["38,120 remaining · -411,880 / 450,000 credits used", "credits used"],
    ["38,120 remaining · 411,880 / -450,000 credits used", "credits total"],
    ["Max Plan -450,000 credits / month", "plan credits"],
  ])("augment (auggie): %s", (line, field) => {
    const lines = ["Max Plan 450,000 credits / month", "38,120 remaining · 411,880 / 450,000 credits used"];
    const changed = line.startsWith("Max Plan") ? [line, lines[1]!] : [lines[0]!, line];
    expect(() => accountStatus(changed)).toThrow(parseErrorNaming(field));
  });
});
