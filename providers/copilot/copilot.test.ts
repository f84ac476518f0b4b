import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { QuotabarError } from "../../domain/errors.js";
import { useSimulator } from "../../test/helpers/harness.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { COPILOT_HEADER_DEFAULTS, copilotHeaderValues } from "./editor-headers.js";
import { copilotPlanLabel, copilotSnapshot, type CopilotQuota, type CopilotReading } from "./policy.js";
import { COPILOT_DEVICE_TOKEN, COPILOT_SIM_MIN_API_VERSION, COPILOT_TEST_TOKEN } from "./simulator.js";
import { decodeCopilotUser } from "./wire.js";

const NO_SNAPSHOTS = "GitHub returned no Copilot quota snapshots";
const NO_SNAPSHOTS_HINT = "This usually means no active Copilot subscription or no recent use; retry after a few minutes.";

const sim = useSimulator();

afterEach(() => rmSync(join(sim.home, ".config"), { recursive: true, force: true }));

/** Copilot's entry of the usage document, fetched with the simulator's environment plus `extra`. */
const copilot = async (extra: Record<string, string | undefined> = {}) =>
  (await sim.quotabar(extra).usage({ providers: ["copilot"] })).providers[0]!;

describe("copilot usage against the simulator", () => {
  it("maps premium interactions to primary and chat to secondary, with plan, counts and reset", async () => {
    const usage = await copilot();
    expect(usage.ok).toBe(true);
    expect(usage.source).toBe("oauth");
    expect(usage.plan).toBe("Individual");
    // 42.7 % remaining -> 57.3 % used; 300 - 128 = 172 used.
    expect(usage.primary).toEqual({
      label: "Premium",
      usedPercent: 57.3,
      used: 172,
      limit: 300,
      unit: "requests",
      unlimited: false,
      resetsAt: "2026-12-01T00:00:00.000Z",
      windowMinutes: null,
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
  ...fields,
});

const reading = (fields: Partial<CopilotReading>): CopilotReading => ({
  plan: null,
  snapshots: {},
  monthlyQuotas: { chat: null, completions: null },
  limitedUserQuotas: { chat: null, completions: null },
  resetDate: null,
  tokenBasedBilling: false,
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

  it("clamps overage to 100 % and says how far over it is", () => {
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
    expect(snapshot.primary).toMatchObject({ usedPercent: 100, used: 312, limit: 300, note: "12 requests over the monthly allowance" });
  });

  it("ignores zero-entitlement seats that are not unlimited", () => {
    const seats = { premium_interactions: quota({ entitlement: 0, remaining: 0, percentRemaining: 100, quotaId: "premium_interactions" }) };
    expect(() => copilotSnapshot(reading({ snapshots: seats }))).toThrow(NO_SNAPSHOTS);
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
    expect(snapshot.details[0]?.label).toBe("Billing");
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

  it("keeps the header defaults in one object and derives the User-Agent from an overridden plugin version", () => {
    expect(copilotHeaderValues({ id: "copilot" })).toEqual(COPILOT_HEADER_DEFAULTS);
    expect(copilotHeaderValues({ id: "copilot", editorPluginVersion: "copilot-chat/0.31.0" }).userAgent).toBe("GitHubCopilotChat/0.31.0");
    expect(copilotHeaderValues({ id: "copilot", editorPluginVersion: "copilot-chat/0.31.0", userAgent: "X/1" }).userAgent).toBe("X/1");
    expect(() => copilotHeaderValues({ id: "copilot", editorVersion: "vscode/1\r\nX-Evil: 1" })).toThrow(/editorVersion/);
  });
});
