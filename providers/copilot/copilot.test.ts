import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { QuotabarError } from "../../domain/errors.js";
import type { Meter } from "../../domain/usage-document.js";
import { useSimulator } from "../../test/helpers/harness.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { COPILOT_HEADER_DEFAULTS, copilotHeaderValues } from "./editor-headers.js";
import { copilotPlanLabel, copilotResetTime, copilotSnapshot, type CopilotQuota, type CopilotReading } from "./policy.js";
import { githubOrigins } from "./github-host.js";
import {
  COPILOT_DEVICE_TOKEN,
  COPILOT_SIM_ENTERPRISE_HOST,
  COPILOT_SIM_MIN_API_VERSION,
  COPILOT_SIM_NESTING,
  COPILOT_TEST_TOKEN,
} from "./simulator.js";
import { decodeCopilotUser } from "./wire.js";

const NO_SNAPSHOTS = "GitHub returned no Copilot quota snapshots";
const NO_SNAPSHOTS_HINT = "This usually means no active Copilot subscription or no recent use; retry after a few minutes.";

const sim = useSimulator();

afterEach(() => rmSync(join(sim.home, ".config"), { recursive: true, force: true }));

/** Copilot's entry of the usage document, fetched with the simulator's environment plus `extra`. */
const copilot = async (extra: Record<string, string | undefined> = {}) =>
  (await sim.quotabar(extra).usage({ providers: ["copilot"] })).providers[0]!;

/** The meter as the policy made it: its pace depends on today's date, not on the answer. */
const withoutPace = (meter: Meter | null | undefined) => {
  const { pace: _pace, ...rest } = meter ?? ({} as Meter);
  return rest;
};

describe("copilot usage against the simulator", () => {
  it("maps premium interactions to primary and chat to secondary, with plan, counts and reset", async () => {
    const usage = await copilot();
    expect(usage.ok).toBe(true);
    expect(usage.source).toBe("oauth");
    expect(usage.plan).toBe("Individual");
    // 42.7 % remaining -> 57.3 % used; 300 - 128 = 172 used.
    expect(withoutPace(usage.primary)).toEqual({
      label: "Premium",
      usedPercent: 57.3,
      used: 172,
      limit: 300,
      unit: "requests",
      unlimited: false,
      resetsAt: "2026-12-01T00:00:00.000Z",
      // November, the month up to quota_reset_date
      windowMinutes: 30 * 1440,
      note: null,
    });
    expect(usage.secondary).toMatchObject({ label: "Chat", unlimited: true, usedPercent: 0, note: "Unlimited", resetsAt: null });
    expect(usage.details).toEqual([{ label: "Completions", value: "Unlimited" }]);
  });

  it("sends the six headers of spec 4.17 with the token scheme word `token`", async () => {
    await copilot();
    const request = sim.sim.requests.at(-1)!;
    expect(request).toMatchObject({ origin: "https://api.github.com", method: "GET", path: "/copilot_internal/user" });
    expect(request.headers).toMatchObject({
      authorization: `token ${COPILOT_TEST_TOKEN}`,
      accept: "application/json",
      "editor-version": "vscode/1.96.2",
      "editor-plugin-version": "copilot-chat/0.26.7",
      "user-agent": "GitHubCopilotChat/0.26.7",
      "x-github-api-version": "2025-04-01",
    });
  });

  it("accepts the camelCase form (quotaSnapshots.premiumInteractions, copilotPlan) and numeric strings", async () => {
    sim.sim.setScenario("copilot", "camel_case");
    const usage = await copilot();
    expect(usage.plan).toBe("Business");
    expect(usage.primary).toMatchObject({ label: "Premium", usedPercent: 75, used: 225, limit: 300, resetsAt: "2026-12-01T00:00:00.000Z" });
    expect(usage.secondary).toMatchObject({ label: "Chat", usedPercent: 20, used: 100, limit: 500, unlimited: false });
  });

  it("shows unlimited snapshots as unlimited bars", async () => {
    sim.sim.setScenario("copilot", "unlimited");
    const usage = await copilot();
    expect(usage.plan).toBe("Enterprise");
    expect(usage.primary).toMatchObject({ label: "Premium", unlimited: true, usedPercent: 0, note: "Unlimited", used: null, limit: null });
    expect(usage.secondary).toMatchObject({ label: "Chat", unlimited: true });
  });

  it("puts chat in the primary slot when there is no premium quota", async () => {
    sim.sim.setScenario("copilot", "chat_only");
    const usage = await copilot();
    expect(usage.plan).toBe("Free");
    expect(usage.primary).toMatchObject({ label: "Chat", usedPercent: 62.5, used: 125, limit: 200 });
    expect(usage.secondary).toBeNull();
  });

  it("falls back to the old monthly counters of the free plan", async () => {
    sim.sim.setScenario("copilot", "free_counters");
    const usage = await copilot();
    expect(usage.primary).toMatchObject({
      label: "Completions",
      usedPercent: 13.35,
      used: 267,
      limit: 2000,
      resetsAt: "2026-12-01T00:00:00.000Z",
    });
    expect(usage.secondary).toMatchObject({ label: "Chat", usedPercent: 18, used: 9, limit: 50 });
  });

  it("says what no quota snapshots usually means", async () => {
    sim.sim.setScenario("copilot", "no_snapshots");
    const usage = await copilot();
    expect(usage.ok).toBe(false);
    expect(usage.error).toEqual({ code: "upstream", message: NO_SNAPSHOTS, hint: NO_SNAPSHOTS_HINT });
    expect(usage.error?.hint).toMatch(/no active Copilot subscription or no recent use; retry after a few minutes/);
  });

  it("says the editor / API-version headers are outdated, and a config override fixes it", async () => {
    sim.sim.setScenario("copilot", "outdated_api_version");
    const failed = await copilot();
    expect(failed.error?.code).toBe("upstream");
    expect(failed.error?.message).toContain("the required API version header is outdated (HTTP 400");
    expect(failed.error?.hint).toContain("editor and plugin version header values must be updated");
    for (const field of ["editorVersion", "editorPluginVersion", "apiVersion", "userAgent"])
      expect(failed.error?.hint).toContain(`providers[copilot].${field}`);
    expect(failed.error?.hint).toContain("X-GitHub-Api-Version 2025-04-01");
    expect(failed.error?.hint).toContain("update quotabar");

    writeConfig(sim.home, {
      providers: [{ id: "copilot", apiVersion: "2026-10-01", editorVersion: "vscode/1.99.0", editorPluginVersion: "copilot-chat/0.30.1" }],
    });
    const fixed = await copilot();
    expect(fixed.ok).toBe(true);
    const request = sim.sim.requests.at(-1)!;
    expect(request.headers["x-github-api-version"]).toBe("2026-10-01");
    expect("2026-10-01" >= COPILOT_SIM_MIN_API_VERSION).toBe(true);
    expect(request.headers["editor-version"]).toBe("vscode/1.99.0");
    expect(request.headers["editor-plugin-version"]).toBe("copilot-chat/0.30.1");
    expect(request.headers["user-agent"]).toBe("GitHubCopilotChat/0.30.1");
  });

  it("rejects an API version override that is not a date, before calling GitHub", async () => {
    writeConfig(sim.home, { providers: [{ id: "copilot", apiVersion: "latest" }] });
    const usage = await copilot();
    expect(usage.error).toMatchObject({ code: "not_configured", message: "providers[copilot].apiVersion must be a date like 2025-04-01" });
    expect(sim.sim.requests).toHaveLength(0);
  });

  it("gives the spec's guidance for a rejected token from the environment", async () => {
    sim.sim.setScenario("copilot", "unauthorized");
    const usage = await copilot();
    expect(usage.error?.code).toBe("unauthorized");
    expect(usage.error?.message).toBe("GitHub Copilot token invalid or lacking scope (HTTP 401: Bad credentials)");
    expect(usage.error?.hint).toContain("The token in the environment was rejected");
    expect(usage.error?.hint).toContain("`quotabar login copilot`");
    expect(usage.error?.hint).toContain("personal access token with read:user");
    expect(usage.error?.hint).toContain("COPILOT_API_TOKEN");
  });

  it("gives the spec's guidance for a rejected token from the config file", async () => {
    writeConfig(sim.home, { providers: [{ id: "copilot", apiKey: "gho_revokedToken0000000000000000000" }] });
    const usage = await copilot();
    expect(usage.error?.code).toBe("unauthorized");
    expect(usage.error?.hint).toContain("The stored token was rejected");
    expect(usage.error?.hint).toContain("`quotabar login copilot`");
    expect(usage.error?.hint).toContain("personal access token with read:user");
    expect(usage.error?.hint).toContain("`quotabar config set-key copilot --stdin`");
    expect(JSON.stringify(usage)).not.toContain("gho_revokedToken");
  });

  it("treats a 403 as a token lacking scope, unless GitHub says the rate limit ran out", async () => {
    sim.sim.setScenario("copilot", "forbidden");
    const forbidden = await copilot();
    expect(forbidden.error?.code).toBe("forbidden");
    expect(forbidden.error?.message).toContain("token invalid or lacking scope (HTTP 403");
    expect(forbidden.error?.hint).toContain("read:user");

    sim.sim.setScenario("copilot", "rate_limited");
    const limited = await copilot();
    expect(limited.error?.code).toBe("rate_limited");
  });

  it.each([
    ["malformed", "parse", "quota_snapshots.premium_interactions.percent_remaining", "may have changed its API"],
    [
      "upstream_500",
      "upstream",
      "GitHub Copilot API error (HTTP 500: Internal Server Error)",
      "Retry later (https://www.githubstatus.com)",
    ],
  ])("turns the %s scenario into a %s error that names what went wrong", async (scenario, code, message, hint) => {
    sim.sim.setScenario("copilot", scenario);
    const { error } = await copilot();
    expect(error?.code).toBe(code);
    expect(error?.message).toContain(message);
    expect(error?.hint).toContain(hint);
  });

  it("times out a slow answer within the budget", async () => {
    sim.sim.setScenario("copilot", "slow");
    const doc = await sim.quotabar({}, 300).usage({ providers: ["copilot"] });
    expect(doc.providers[0]!.error?.code).toBe("timeout");
  });

  it("says how to log in when no token is found, without calling GitHub", async () => {
    const usage = await copilot({ COPILOT_API_TOKEN: undefined });
    expect(usage.error?.code).toBe("not_configured");
    expect(usage.error?.hint).toContain("quotabar login copilot");
    expect(usage.error?.hint).toContain("COPILOT_API_TOKEN");
    expect(usage.error?.hint).toContain("read:user");
    expect(sim.sim.requests).toHaveLength(0);
  });

  it("prefers the config apiKey (where the login saves it) over COPILOT_API_TOKEN", async () => {
    writeConfig(sim.home, { providers: [{ id: "copilot", apiKey: ` "${COPILOT_DEVICE_TOKEN}" ` }] });
    const usage = await copilot();
    expect(usage.ok).toBe(true);
    expect(sim.sim.requests.at(-1)!.headers.authorization).toBe(`token ${COPILOT_DEVICE_TOKEN}`);
  });

  it("shows an over-quota month as a full bar whose note gives the real figure", async () => {
    sim.sim.setScenario("copilot", "over_quota");
    const usage = await copilot();
    expect(usage.ok).toBe(true);
    expect(usage.plan).toBe("Individual Pro");
    // -4 % remaining, -12 of 300 left: 312 used, 104 %; the bar stops at 100 and used stays a real count.
    expect(withoutPace(usage.primary)).toEqual({
      label: "Premium",
      usedPercent: 100,
      used: 312,
      limit: 300,
      unit: "requests",
      unlimited: false,
      resetsAt: "2026-12-01T00:00:00.000Z",
      windowMinutes: 30 * 1440,
      note: "Over quota: 104% used (312 of 300 requests)",
    });
    expect(usage.secondary).toMatchObject({ label: "Chat", unlimited: true });
  });

  it("shows a token-billed seat with zero-entitlement snapshots as the plan and its credits, not as 0 % bars", async () => {
    sim.sim.setScenario("copilot", "token_billing");
    const usage = await copilot();
    expect(usage.ok).toBe(true);
    expect(usage.error).toBeNull();
    expect(usage).toMatchObject({ plan: "Business", primary: null, secondary: null, tertiary: null });
    expect(usage.details).toEqual([
      { label: "Billing", value: "Token-based billing: GitHub reports no quota meters for this seat" },
      { label: "Credits used", value: "1234.56" },
    ]);
  });

  it("goes to the GitHub Enterprise host of the config entry for usage", async () => {
    sim.sim.setScenario("copilot", "enterprise");
    writeConfig(sim.home, { providers: [{ id: "copilot", enterpriseHost: ` https://${COPILOT_SIM_ENTERPRISE_HOST.toUpperCase()}/ ` }] });
    const usage = await copilot();
    expect(sim.sim.requests.map((r) => `${r.origin}${r.path}`)).toEqual([
      `https://api.${COPILOT_SIM_ENTERPRISE_HOST}/copilot_internal/user`,
    ]);
    expect(usage.ok).toBe(true);
    expect(usage.plan).toBe("Enterprise");
    // quota_reset_date in its ISO form (no quota_reset_date_utc) is the reset of the meter.
    expect(usage.primary).toMatchObject({
      label: "Premium",
      usedPercent: 36,
      used: 360,
      limit: 1000,
      resetsAt: "2026-12-01T00:00:00.000Z",
    });
    expect(usage.secondary).toMatchObject({ label: "Chat", unlimited: true, resetsAt: null });
  });

  it("says a rejected token must come from the enterprise host", async () => {
    sim.sim.setScenario("copilot", "unauthorized");
    writeConfig(sim.home, { providers: [{ id: "copilot", enterpriseHost: COPILOT_SIM_ENTERPRISE_HOST }] });
    const usage = await copilot();
    expect(usage.error?.code).toBe("unauthorized");
    expect(usage.error?.hint).toContain(`It must be a token of ${COPILOT_SIM_ENTERPRISE_HOST}`);
  });

  it.each([
    ["http://octocorp.ghe.com", "must use https"],
    ["ftp://octocorp.ghe.com", "must use https"],
    ["octocorp.ghe.com/api/v3", "must be a bare host name (no path, port or user)"],
    ["octocorp.ghe.com:8443", "must be a bare host name (no path, port or user)"],
    ["token@octocorp.ghe.com", "must be a bare host name (no path, port or user)"],
    ["octocorp", "is not a host name"],
    ["octo corp.ghe.com", "is not a host name"],
    ["api.octocorp.ghe.com", "is the API host; give the web host (octocorp.ghe.com)"],
  ])("refuses the enterprise host %j before sending the token anywhere", async (host, why) => {
    writeConfig(sim.home, { providers: [{ id: "copilot", enterpriseHost: host }] });
    const usage = await copilot();
    expect(usage.error?.code).toBe("not_configured");
    expect(usage.error?.message).toBe(`The GitHub Enterprise host (enterpriseHost) ${why}`);
    expect(usage.error?.hint).toContain("providers[copilot].enterpriseHost (e.g. octocorp.ghe.com)");
    expect(sim.sim.requests).toHaveLength(0);
  });

  it(`gives a parse error, not a stack overflow, for a body nested ${COPILOT_SIM_NESTING} levels deep`, async () => {
    sim.sim.setScenario("copilot", "deeply_nested");
    const usage = await copilot();
    expect(usage.ok).toBe(false);
    expect(usage.error).toMatchObject({
      code: "parse",
      message: "Failed to parse GitHub Copilot response: it nests deeper than 64 levels",
    });
    expect(JSON.stringify(usage)).not.toMatch(/call stack/i);
  });

  it("never puts the token in the document", async () => {
    for (const scenario of ["ok", "unauthorized", "malformed", "outdated_api_version"]) {
      sim.sim.setScenario("copilot", scenario);
      expect(JSON.stringify(await copilot())).not.toContain(COPILOT_TEST_TOKEN);
    }
  });
});

const quota = (fields: Partial<CopilotQuota>): CopilotQuota => ({
  entitlement: null,
  remaining: null,
  percentRemaining: null,
  quotaId: "",
  unlimited: false,
  overageCount: null,
  creditsUsed: null,
  ...fields,
});

const reading = (fields: Partial<CopilotReading>): CopilotReading => ({
  plan: null,
  snapshots: {},
  monthlyQuotas: { chat: null, completions: null },
  limitedUserQuotas: { chat: null, completions: null },
  resetDate: null,
  tokenBasedBilling: false,
  creditsUsed: null,
  ...fields,
});

describe("copilot policy", () => {
  it("skips placeholder snapshots and lets completions stand in for premium", () => {
    const snapshot = copilotSnapshot(
      reading({
        snapshots: {
          premium_interactions: quota({}),
          chat: quota({ entitlement: 100, remaining: 40, percentRemaining: 40, quotaId: "chat" }),
          completions: quota({ entitlement: 2000, remaining: 1500, percentRemaining: 75, quotaId: "completions" }),
        },
      }),
    );
    expect(snapshot.primary).toMatchObject({ label: "Completions", usedPercent: 25, used: 500, limit: 2000 });
    expect(snapshot.secondary).toMatchObject({ label: "Chat", usedPercent: 60 });
  });

  it("computes percent remaining from remaining / entitlement when the server leaves it out", () => {
    const snapshot = copilotSnapshot(
      reading({ snapshots: { premium_interactions: quota({ entitlement: 50, remaining: 10, quotaId: "premium_interactions" }) } }),
    );
    expect(snapshot.primary).toMatchObject({ usedPercent: 80, used: 40, limit: 50 });
  });

  it("clamps overage to 100 % and gives the real percent and counts in the note", () => {
    const snapshot = copilotSnapshot(
      reading({
        snapshots: {
          premium_interactions: quota({
            entitlement: 300,
            remaining: -12,
            percentRemaining: -4,
            overageCount: 12,
            quotaId: "premium_interactions",
          }),
        },
      }),
    );
    expect(snapshot.primary).toMatchObject({
      usedPercent: 100,
      used: 312,
      limit: 300,
      note: "Over quota: 104% used (312 of 300 requests)",
    });
  });

  it("takes the counts' word for an over-quota month when the percent stops at 0", () => {
    const premium = quota({ entitlement: 300, remaining: -30, percentRemaining: 0, quotaId: "premium_interactions" });
    const snapshot = copilotSnapshot(reading({ snapshots: { premium_interactions: premium } }));
    expect(snapshot.primary).toMatchObject({ usedPercent: 100, used: 330, note: "Over quota: 110% used (330 of 300 requests)" });
  });

  it("says so when only the percent is past the quota", () => {
    const chat = quota({ percentRemaining: -25.5, quotaId: "chat" });
    const snapshot = copilotSnapshot(reading({ snapshots: { chat } }));
    expect(snapshot.primary).toMatchObject({ usedPercent: 100, used: null, limit: null, note: "Over quota: 125.5% used" });
  });

  it("names paid overage that leaves the quota at exactly 100 %", () => {
    const premium = quota({ entitlement: 300, remaining: 0, percentRemaining: 0, overageCount: 7, quotaId: "premium_interactions" });
    const snapshot = copilotSnapshot(reading({ snapshots: { premium_interactions: premium } }));
    expect(snapshot.primary).toMatchObject({ usedPercent: 100, used: 300, note: "7 requests over the monthly allowance" });
  });

  it("never makes used negative when more is left than the entitlement", () => {
    const premium = quota({ entitlement: 300, remaining: 310, quotaId: "premium_interactions" });
    const snapshot = copilotSnapshot(reading({ snapshots: { premium_interactions: premium } }));
    expect(snapshot.primary).toMatchObject({ usedPercent: 0, used: 0, limit: 300, note: null });
  });

  it.each([
    ["zero entitlement and nothing left", { entitlement: 0, remaining: 0, percentRemaining: 100 }],
    ["zero entitlement, no remaining count", { entitlement: 0, percentRemaining: 100 }],
    ["an empty object", {}],
  ])("shows no meter (not 0 %%) for a snapshot with %s", (_, fields) => {
    const seats = { premium_interactions: quota({ quotaId: "premium_interactions", ...fields }), completions: quota(fields) };
    expect(() => copilotSnapshot(reading({ snapshots: seats }))).toThrow(NO_SNAPSHOTS);
  });

  it("puts the reset date on both meters, but not on unlimited ones", () => {
    const snapshot = copilotSnapshot(
      reading({
        resetDate: "2026-12-01",
        snapshots: {
          premium_interactions: quota({ entitlement: 300, remaining: 150, quotaId: "premium_interactions" }),
          chat: quota({ percentRemaining: 80, quotaId: "chat" }),
          completions: quota({ unlimited: true, quotaId: "completions" }),
        },
      }),
    );
    expect(snapshot.primary?.resetsAt).toBe("2026-12-01T00:00:00.000Z");
    expect(snapshot.secondary?.resetsAt).toBe("2026-12-01T00:00:00.000Z");
    // both windows are the monthly period up to the reset: 1 November to 1 December
    expect(snapshot.primary?.windowMinutes).toBe(30 * 1440);
    expect(snapshot.secondary?.windowMinutes).toBe(30 * 1440);
    const march = copilotSnapshot(reading({ resetDate: "2026-03-31T00:00:00Z", snapshots: { chat: quota({ percentRemaining: 80 }) } }));
    // from 28 February (the last day of a shorter month) to 31 March
    expect(march.primary?.windowMinutes).toBe(31 * 1440);
    expect(snapshot.details).toEqual([{ label: "Completions", value: "Unlimited" }]);
    const unlimited = copilotSnapshot(reading({ resetDate: "2026-12-01", snapshots: { chat: quota({ unlimited: true }) } }));
    expect(unlimited.primary).toMatchObject({ unlimited: true, resetsAt: null });
  });

  it.each([
    ["2026-12-01", "2026-12-01T00:00:00.000Z"],
    [" 2026-12-01 ", "2026-12-01T00:00:00.000Z"],
    ["2026-12-01T00:00:00Z", "2026-12-01T00:00:00.000Z"],
    ["2026-12-01T00:00:00.000Z", "2026-12-01T00:00:00.000Z"],
    ["2026-12-01T08:00:00+02:00", "2026-12-01T06:00:00.000Z"],
    ["2026-12-01t00:00:00z", "2026-12-01T00:00:00.000Z"],
    ["2026-02-30T00:00:00Z", null],
    ["2026-12-01T08:00", "2026-12-01T08:00:00.000Z"],
    ["2026-12-01 08:00:00", "2026-12-01T08:00:00.000Z"],
    ["2026-02-30", null],
    ["December 1, 2026", null],
    ["soon", null],
    [null, null],
  ])("reads the reset date %j as %j (UTC, never local time)", (text, iso) => {
    expect(copilotResetTime(text)).toBe(iso);
  });

  it("lists credits used next to the meters when a snapshot carries them", () => {
    const premium = quota({ entitlement: 300, remaining: 150, quotaId: "premium_interactions", creditsUsed: 12.345 });
    const snapshot = copilotSnapshot(reading({ snapshots: { premium_interactions: premium }, creditsUsed: 99 }));
    expect(snapshot.primary).toMatchObject({ usedPercent: 50 });
    expect(snapshot.details).toEqual([{ label: "Credits used", value: "12.35" }]);
  });

  it("falls back to a top-level credits_used for a token-billed seat", () => {
    const snapshot = copilotSnapshot(reading({ plan: "business", tokenBasedBilling: true, creditsUsed: 40 }));
    expect(snapshot.details).toContainEqual({ label: "Credits used", value: "40" });
  });

  it("throws the no-snapshots error as a QuotabarError with the spec's guidance", () => {
    try {
      copilotSnapshot(reading({ plan: "business" }));
      expect.fail("should throw");
    } catch (error) {
      expect(error).toBeInstanceOf(QuotabarError);
      expect((error as QuotabarError).remedies).toEqual([{ kind: "advice", text: NO_SNAPSHOTS_HINT }]);
    }
  });

  it("shows the plan without bars for token-billed seats", () => {
    const snapshot = copilotSnapshot(reading({ plan: "business", tokenBasedBilling: true }));
    expect(snapshot).toMatchObject({ plan: "Business", primary: null, secondary: null });
    expect(snapshot.details).toEqual([{ label: "Billing", value: "Token-based billing: GitHub reports no quota meters for this seat" }]);
  });

  it("cleans plan labels like the real client", () => {
    expect(copilotPlanLabel("individual")).toBe("Individual");
    expect(copilotPlanLabel("free")).toBe("Free");
    expect(copilotPlanLabel("individual_pro")).toBe("Individual Pro");
    expect(copilotPlanLabel("business plan")).toBe("Business");
    expect(copilotPlanLabel("unknown")).toBeNull();
    expect(copilotPlanLabel(null)).toBeNull();
  });
});

describe("copilot decoding and headers", () => {
  it("folds camelCase keys into snake_case, snake_case winning", () => {
    const decoded = decodeCopilotUser(
      JSON.stringify({
        copilotPlan: "pro",
        quotaResetDateUtc: "2026-12-01",
        quotaSnapshots: { premiumInteractions: { percentRemaining: 1 } },
        quota_snapshots: { chat: { percent_remaining: 50 } },
      }),
    );
    expect(decoded).toMatchObject({ plan: "pro", resetDate: "2026-12-01" });
    expect(Object.keys(decoded.snapshots)).toEqual(["chat"]);
  });

  it("reads quota_reset_date_utc before quota_reset_date, and quota_remaining when remaining is missing", () => {
    const decoded = decodeCopilotUser(
      JSON.stringify({
        copilot_plan: "individual",
        quota_reset_date: "2026-12-01",
        quota_reset_date_utc: "2026-12-01T08:00:00Z",
        quota_snapshots: { premium_interactions: { entitlement: 300, quota_remaining: 12.5, quota_id: "premium_interactions" } },
      }),
    );
    expect(decoded.resetDate).toBe("2026-12-01T08:00:00Z");
    expect(decoded.snapshots.premium_interactions).toMatchObject({ remaining: 12.5, percentRemaining: null });
  });

  it.each([
    [{ entitlement: -3, percent_remaining: 10 }, "quota_snapshots.premium_interactions.entitlement: must not be negative (got -3)"],
    [{ entitlement: "abc" }, "quota_snapshots.premium_interactions.entitlement: Invalid input: expected number, received string"],
    [{ percent_remaining: 5, overage_count: -1 }, "quota_snapshots.premium_interactions.overage_count: must not be negative (got -1)"],
    [{ percent_remaining: 5, credits_used: "-2" }, "quota_snapshots.premium_interactions.credits_used: must not be negative (got -2)"],
    [{ percent_remaining: "1e400" }, "quota_snapshots.premium_interactions.percent_remaining: Invalid input"],
    [{ percent_remaining: 1e300 }, "quota_snapshots.premium_interactions.percent_remaining: is larger than any quota (got 1e+300)"],
    [
      { entitlement: 300, remaining: 128, percent_remaining: -42.7 },
      "quota_snapshots.premium_interactions.percent_remaining: must not be below zero while remaining is 128 (got -42.7)",
    ],
    [{ remaining: [] }, "quota_snapshots.premium_interactions.remaining: Invalid input: expected number, received array"],
  ])("refuses the snapshot %j with a parse error naming the field", (premium, message) => {
    const body = JSON.stringify({ quota_snapshots: { premium_interactions: premium } });
    expect(() => decodeCopilotUser(body)).toThrow(expect.objectContaining({ code: "parse", message: expect.stringContaining(message) }));
  });

  it("refuses negative free-plan totals, naming the field", () => {
    const body = JSON.stringify({ monthly_quotas: { chat: -50, completions: 2000 }, limited_user_quotas: { chat: 1, completions: 1 } });
    expect(() => decodeCopilotUser(body)).toThrow("monthly_quotas.chat: must not be negative (got -50)");
  });

  it("accepts what is left going below zero, null snapshots, string flags and a top-level credits_used", () => {
    const decoded = decodeCopilotUser(
      JSON.stringify({
        token_based_billing: "true",
        credits_used: "7.5",
        limited_user_quotas: { chat: -2, completions: 0 },
        quota_snapshots: {
          chat: null,
          premium_interactions: { entitlement: 300, remaining: -12, percent_remaining: -4, unlimited: "false", credits_used: 3 },
        },
      }),
    );
    expect(decoded).toMatchObject({ tokenBasedBilling: true, creditsUsed: 7.5, limitedUserQuotas: { chat: -2, completions: 0 } });
    expect(Object.keys(decoded.snapshots)).toEqual(["premium_interactions"]);
    expect(decoded.snapshots.premium_interactions).toMatchObject({
      remaining: -12,
      percentRemaining: -4,
      unlimited: false,
      creditsUsed: 3,
    });
  });

  it("refuses a body nested 100000 levels deep with a clear parse error, at any place", () => {
    const deep = (inner: string) => `${"[".repeat(100_000)}${inner}${"]".repeat(100_000)}`;
    for (const body of [
      deep("1"),
      `{"copilot_plan":"pro","extra":${deep("")}}`,
      `{"quota_snapshots":{"chat":{"percent_remaining":${deep("5")}}}}`,
    ]) {
      expect(() => decodeCopilotUser(body)).toThrow("Failed to parse GitHub Copilot response: it nests deeper than 64 levels");
    }
  });

  it("accepts a body nested exactly 64 levels deep and refuses one level more", () => {
    // the root object is level 1, so n arrays inside it reach level n + 1
    const padded = (n: number) => `{"pad":${"[".repeat(n)}${"]".repeat(n)},"quota_snapshots":{"chat":{"percent_remaining":40}}}`;
    expect(decodeCopilotUser(padded(63)).snapshots.chat?.percentRemaining).toBe(40);
    expect(() => decodeCopilotUser(padded(64))).toThrow("nests deeper than 64 levels");
  });

  it("derives the enterprise origins from the host and keeps github.com for none", () => {
    expect(githubOrigins({})).toEqual({ web: "https://github.com", api: "https://api.github.com", enterpriseHost: null });
    expect(githubOrigins({ enterpriseHost: "  " })).toEqual(githubOrigins(undefined));
    expect(githubOrigins({ enterpriseHost: "github.com" }).enterpriseHost).toBeNull();
    expect(githubOrigins({ enterpriseHost: "Octocorp.GHE.com" })).toEqual({
      web: "https://octocorp.ghe.com",
      api: "https://api.octocorp.ghe.com",
      enterpriseHost: "octocorp.ghe.com",
    });
    expect(() => githubOrigins({ enterpriseHost: 42 })).toThrow("The GitHub Enterprise host (enterpriseHost) is not text");
  });

  it("keeps the header defaults in one object and derives the User-Agent from an overridden plugin version", () => {
    expect(copilotHeaderValues({ id: "copilot" })).toEqual(COPILOT_HEADER_DEFAULTS);
    expect(copilotHeaderValues({ id: "copilot", editorPluginVersion: "copilot-chat/0.31.0" }).userAgent).toBe("GitHubCopilotChat/0.31.0");
    expect(copilotHeaderValues({ id: "copilot", editorPluginVersion: "copilot-chat/0.31.0", userAgent: "X/1" }).userAgent).toBe("X/1");
    expect(() => copilotHeaderValues({ id: "copilot", editorVersion: "vscode/1\r\nX-Evil: 1" })).toThrow(/editorVersion/);
  });
});
