import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fixturesOf } from "../../simulator/fixtures.js";
import { useSimulator } from "../../test/helpers/harness.js";
import { writeConfig } from "../../test/helpers/write-config.js";
import { organizationsIn } from "./organizations.js";
import { contextsOf, kiloReading } from "./payloads.js";
import { kiloSnapshot } from "./policy.js";
import { KILO_BATCH_PATH, KILO_CLI_TEST_TOKEN, KILO_ORGANIZATIONS_PATH, KILO_TEST_KEY, KILO_TEST_ORGANIZATION_ID } from "./simulator.js";
import { decodeTrpcBatch, kiloBatchUrl, trpcError } from "./trpc-batch.js";
import { kiloSourceMode } from "./index.js";

const fixture = fixturesOf(import.meta.url);

const sim = useSimulator();

async function kilo(extra: Record<string, string | undefined> = {}, options: { source?: string; timeoutMs?: number } = {}) {
  const doc = await sim
    .quotabar(extra, options.timeoutMs)
    .usage({ providers: ["kilo"], ...(options.source ? { source: options.source } : {}) });
  return doc.providers[0]!;
}

const authDir = () => join(sim.home, ".local", "share", "kilo");
const authFile = () => join(authDir(), "auth.json");

/** The Kilo CLI's auth file, as `kilo login` leaves it, under the test HOME. */
function writeCliSession(text = fixture("cli-session.json"), dir = authDir()): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "auth.json"), text);
}

async function withConfig<T>(entry: object, run: () => Promise<T>): Promise<T> {
  const cleanup = writeConfig(sim.home, { providers: [{ id: "kilo", ...entry }] });
  try {
    return await run();
  } finally {
    cleanup();
  }
}

const usageCalls = () => sim.sim.requests.filter((r) => r.path === KILO_BATCH_PATH);
const bearers = () => usageCalls().map((r) => r.headers.authorization);

const ACME = `Acme Robotics (${KILO_TEST_ORGANIZATION_ID})`;
const ORGANIZATIONS = { label: "Organizations", value: `${ACME}, Beta Labs (0b7e4a19-2c3d-4e5f-8a9b-1c2d3e4f5a6b)` };
const PERSONAL = { label: "Scope", value: "Personal" };

afterEach(() => {
  rmSync(join(sim.home, ".local"), { recursive: true, force: true });
  rmSync(join(sim.home, "xdg-data"), { recursive: true, force: true });
});

describe("kilo over the API", () => {
  it("maps credit blocks to primary, Kilo Pass to secondary, and tier and auto top-up to plan and activity", async () => {
    const usage = await kilo();
    expect(usage).toMatchObject({ ok: true, source: "api", plan: "Pro", tertiary: null, error: null });
    expect(usage.primary).toEqual({
      label: "Credits",
      usedPercent: 20.83,
      used: 6.25,
      limit: 30,
      unit: "credits",
      unlimited: false,
      resetsAt: null,
      windowMinutes: null,
      note: null,
    });
    expect(usage.secondary).toEqual({
      label: "Kilo Pass",
      usedPercent: 16.87,
      used: 12.4,
      limit: 73.5,
      unit: "USD",
      unlimited: false,
      resetsAt: "2026-03-28T04:00:00.000Z",
      // a monthly pass: from 28 February to the next billing on 28 March
      windowMinutes: 28 * 1440,
      note: "$12.40 / $49.00 (+ $24.50 bonus)",
    });
    expect(usage.details).toEqual([PERSONAL, ORGANIZATIONS, { label: "Activity", value: "Auto top-up: visa" }]);
  });

  it("sends one batched tRPC GET with the Bearer key, and no organization header for the personal account", async () => {
    await kilo();
    expect(usageCalls()).toHaveLength(1);
    const request = usageCalls()[0]!;
    expect(request.headers["x-kilocode-organizationid"]).toBeUndefined();
    expect(request.origin).toBe("https://app.kilo.ai");
    expect(request.path).toBe(KILO_BATCH_PATH);
    expect(request.query.get("batch")).toBe("1");
    expect(JSON.parse(request.query.get("input")!)).toEqual({ "0": { json: null }, "1": { json: null }, "2": { json: null } });
    expect(request.headers.authorization).toBe(`Bearer ${KILO_TEST_KEY}`);
    expect(request.headers.accept).toBe("application/json");
  });

  it("shows an empty balance as exhausted, no pass, and auto top-up off as activity only", async () => {
    sim.sim.setScenario("kilo", "empty");
    const usage = await kilo();
    expect(usage.primary).toMatchObject({ usedPercent: 100, used: 0, limit: 0, note: null });
    expect(usage.secondary).toBeNull();
    expect(usage.plan).toBeNull();
    expect(usage.details).toContainEqual({ label: "Activity", value: "Auto top-up: off" });
  });

  it("reads the sparse object form and ignores a failed optional procedure", async () => {
    sim.sim.setScenario("kilo", "sparse");
    const usage = await kilo();
    expect(usage).toMatchObject({ ok: true, plan: "Starter", secondary: null, details: [PERSONAL, ORGANIZATIONS] });
    expect(usage.primary).toMatchObject({ usedPercent: 10, used: 10, limit: 100, note: null });
  });

  it("reads a 207 multi-status batch instead of rejecting it", async () => {
    sim.sim.setScenario("kilo", "multi_status");
    const usage = await kilo();
    expect(usage.ok).toBe(true);
    expect(usage.primary?.usedPercent).toBe(10);
  });

  it("names the bad field of a malformed credit block", async () => {
    sim.sim.setScenario("kilo", "malformed");
    const usage = await kilo();
    expect(usage.error?.code).toBe("parse");
    expect(usage.error?.message).toContain("creditBlocks[0].amount_mUsd");
  });

  it("rejects a body that is not a tRPC batch", async () => {
    sim.sim.setScenario("kilo", "unexpected_shape");
    expect((await kilo()).error).toMatchObject({
      code: "parse",
      message: "Failed to parse Kilo API response: Unexpected tRPC batch shape",
    });
  });

  it("maps 404, 500 and a slow answer to the reference's errors", async () => {
    sim.sim.setScenario("kilo", "not_found");
    expect((await kilo()).error).toMatchObject({
      code: "upstream",
      message: "Kilo API endpoint not found (404). Verify the tRPC batch path and procedure names.",
    });
    sim.sim.setScenario("kilo", "upstream_500");
    expect((await kilo()).error).toMatchObject({
      code: "upstream",
      message: "Kilo API is currently unavailable (HTTP 500). Try again later.",
    });
    sim.sim.setScenario("kilo", "slow");
    expect((await kilo({}, { timeoutMs: 300 })).error?.code).toBe("timeout");
  });
});

describe("kilo source modes", () => {
  it("auto: falls back to the CLI session when the API answers 401", async () => {
    writeCliSession();
    sim.sim.setScenario("kilo", "api_key_rejected");
    const usage = await kilo();
    expect(usage).toMatchObject({ ok: true, source: "cli", plan: "Pro" });
    expect(bearers()).toEqual([`Bearer ${KILO_TEST_KEY}`, `Bearer ${KILO_CLI_TEST_TOKEN}`]);
  });

  it("auto: falls back on 403", async () => {
    writeCliSession();
    sim.sim.setScenario("kilo", "api_key_forbidden");
    expect(await kilo()).toMatchObject({ ok: true, source: "cli" });
  });

  it("auto: falls back on a tRPC UNAUTHORIZED inside an HTTP 200", async () => {
    writeCliSession();
    sim.sim.setScenario("kilo", "trpc_unauthorized");
    const usage = await kilo();
    expect(usage).toMatchObject({ ok: true, source: "cli" });
    expect(bearers()).toHaveLength(2);
  });

  it("auto: uses the CLI session straight away when no API key is configured", async () => {
    writeCliSession();
    const usage = await kilo({ KILO_API_KEY: undefined });
    expect(usage).toMatchObject({ ok: true, source: "cli" });
    expect(bearers()).toEqual([`Bearer ${KILO_CLI_TEST_TOKEN}`]);
  });

  it("auto: honours XDG_DATA_HOME for the CLI auth file", async () => {
    const xdg = join(sim.home, "xdg-data");
    writeCliSession(undefined, join(xdg, "kilo"));
    expect(await kilo({ KILO_API_KEY: undefined, XDG_DATA_HOME: xdg })).toMatchObject({ ok: true, source: "cli" });
  });

  it("auto: with neither credential, says where the CLI session was looked for and how to add a key", async () => {
    const usage = await kilo({ KILO_API_KEY: undefined });
    expect(usage.error).toMatchObject({
      code: "not_configured",
      message: `Kilo CLI session not found at ${authFile()}. Run \`kilo login\` to create ~/.local/share/kilo/auth.json.`,
    });
    expect(usage.error?.hint).toContain("KILO_API_KEY");
    expect(usage.error?.hint).toContain("quotabar config set-key kilo --stdin");
    expect(usage.error?.hint).toContain("Install the Kilo CLI and run `kilo login`.");
    expect(sim.sim.requests).toHaveLength(0);
  });

  it("auto: a rejected key without a CLI session reports the authentication failure", async () => {
    sim.sim.setScenario("kilo", "api_key_rejected");
    const usage = await kilo();
    expect(usage.error).toMatchObject({
      code: "unauthorized",
      message: "Kilo authentication failed (401/403). Refresh KILO_API_KEY or run `kilo login`.",
    });
    expect(JSON.stringify(usage)).not.toContain(KILO_TEST_KEY);
  });

  it("auto: when both are rejected, the CLI session's failure is shown", async () => {
    writeCliSession();
    sim.sim.setScenario("kilo", "unauthorized");
    const usage = await kilo();
    expect(usage.error?.code).toBe("unauthorized");
    expect(bearers()).toEqual([`Bearer ${KILO_TEST_KEY}`, `Bearer ${KILO_CLI_TEST_TOKEN}`]);
  });

  it("api (config source): never touches the CLI session", async () => {
    writeCliSession();
    sim.sim.setScenario("kilo", "api_key_rejected");
    const usage = await withConfig({ source: "api" }, () => kilo());
    expect(usage.error?.code).toBe("unauthorized");
    expect(bearers()).toEqual([`Bearer ${KILO_TEST_KEY}`]);
  });

  it("api: without a key, asks for KILO_API_KEY even when a CLI session exists", async () => {
    writeCliSession();
    const usage = await kilo({ KILO_API_KEY: undefined }, { source: "api" });
    expect(usage.error).toMatchObject({ code: "not_configured", message: "Kilo API credentials missing. Set KILO_API_KEY." });
    expect(usage.error?.hint).toContain("quotabar config set-key kilo --stdin");
  });

  it("cli (--source cli): uses only the CLI session even when an API key is set", async () => {
    writeCliSession();
    const usage = await kilo({}, { source: "cli" });
    expect(usage).toMatchObject({ ok: true, source: "cli" });
    expect(bearers()).toEqual([`Bearer ${KILO_CLI_TEST_TOKEN}`]);
  });

  it("cli (config source): reports a missing session file", async () => {
    const usage = await withConfig({ source: "cli" }, () => kilo());
    expect(usage.error).toMatchObject({ code: "not_configured" });
    expect(usage.error?.message).toContain(`Kilo CLI session not found at ${authFile()}`);
    expect(usage.error?.hint).toMatch(/^Install the Kilo CLI and run `kilo login`\. .*KILO_API_KEY/);
    expect(sim.sim.requests).toHaveLength(0);
  });

  it("cli: reports an invalid or unreadable session file", async () => {
    writeCliSession('{"kilo": {"refresh": "only"}}');
    expect((await kilo({}, { source: "cli" })).error).toMatchObject({
      code: "parse",
      message: `Kilo CLI session file is invalid at ${authFile()}. Run \`kilo login\` to refresh auth.json.`,
    });
    writeCliSession("not json");
    expect((await kilo({}, { source: "cli" })).error?.code).toBe("parse");
    rmSync(authFile());
    mkdirSync(authFile()); // a directory where the file should be cannot be read
    expect((await kilo({}, { source: "cli" })).error).toMatchObject({
      code: "not_configured",
      message: `Kilo CLI session file is unreadable at ${authFile()}. Fix permissions or run \`kilo login\` again.`,
    });
  });

  it("rejects a source mode Kilo does not have", async () => {
    await expect(kilo({}, { source: "local" })).rejects.toMatchObject({
      code: "not_configured",
      message: 'Kilo Code has no source "local"',
    });
  });

  it("treats web and oauth as auto, like the real client", () => {
    expect(["auto", "web", "oauth", "API", "cli", "local"].map(kiloSourceMode)).toEqual(["auto", "auto", "auto", "api", "cli", null]);
  });
});

describe("kilo tRPC envelope and field search", () => {
  it("builds the batch URL of the reference", () => {
    const url = new URL(kiloBatchUrl());
    expect(url.origin + url.pathname).toBe(`https://app.kilo.ai${KILO_BATCH_PATH}`);
    expect(url.searchParams.get("input")).toBe('{"0":{"json":null},"1":{"json":null},"2":{"json":null}}');
  });

  it("classifies procedure errors: FORBIDDEN, NOT_FOUND, others", () => {
    const [forbidden] = decodeTrpcBatch('[{"error":{"json":{"message":"no","data":{"code":"FORBIDDEN"}}}}]', 3);
    expect(forbidden?.kind).toBe("error");
    expect(trpcError("user.getCreditBlocks", forbidden as never).code).toBe("forbidden");
    const [missing] = decodeTrpcBatch('{"error":{"message":"No procedure found","code":"NOT_FOUND"}}', 3);
    expect(trpcError("user.getCreditBlocks", missing as never).message).toContain("endpoint not found (404)");
    const [other] = decodeTrpcBatch('[{"error":{"json":{"message":"boom","data":{"code":"INTERNAL_SERVER_ERROR"}}}}]', 3);
    expect(trpcError("kiloPass.getState", other as never)).toMatchObject({ code: "parse" });
  });

  it("takes result.data.json, result.data without json, or result.json", () => {
    const results = decodeTrpcBatch('[{"result":{"data":{"json":{"a":1}}}},{"result":{"data":{"b":2}}},{"result":{"json":{"c":3}}}]', 3);
    expect(results).toEqual([
      { kind: "payload", payload: { a: 1 } },
      { kind: "payload", payload: { b: 2 } },
      { kind: "payload", payload: { c: 3 } },
    ]);
    expect(() => decodeTrpcBatch("<html>", 3)).toThrow("the body is not JSON");
  });

  it("searches nested objects breadth first down to depth 2 only", () => {
    const contexts = contextsOf({ a: { b: { c: { deep: 1 } } }, list: [{ x: 1 }] });
    expect(contexts).toHaveLength(4); // root, a, list[0], a.b
    const reading = kiloReading({ wallet: { summary: { used: 5, total: 20 } } }, null, null);
    expect(reading.credits).toEqual({ used: 5, total: 20, remaining: null });
  });

  it("reads a pass without a subscription object from money keys (cents first) with bonus and reset", () => {
    const reading = kiloReading(
      { totalBalance_mUsd: 19000000 },
      { state: "active_pass", amountCents: 2850, usedCents: 0, bonusCents: 950, currentPeriodEnd: 1790000000 },
      { status: "enabled", topUpAmount: 12.5 },
    );
    expect(reading.credits).toEqual({ used: 0, total: 19, remaining: 19 });
    expect(reading.planName).toBe("active_pass");
    expect(reading.autoTopUp).toEqual({ enabled: true, method: "$12.50" });
    const snapshot = kiloSnapshot(reading);
    expect(snapshot.secondary).toMatchObject({
      label: "Kilo Pass",
      usedPercent: 0,
      limit: 28.5,
      resetsAt: new Date(1790000000 * 1000).toISOString(),
      note: "$0.00 / $19.00 (+ $9.50 bonus)",
    });
    expect(snapshot.details).toEqual([PERSONAL, { label: "Activity", value: "Auto top-up: $12.50" }]);
  });

  it("maps tiers, defaults a tierless subscription to Kilo Pass, and accepts boolean words", () => {
    expect(kiloReading(null, { subscription: { tier: "tier_199", currentPeriodBaseCreditsUsd: 199 } }, null).planName).toBe("Expert");
    expect(kiloReading(null, { subscription: { currentPeriodUsageUsd: 1 } }, null).planName).toBe("Kilo Pass");
    expect(kiloReading(null, { subscription: { tier: "tier_19" } }, null).planName).toBe("Starter");
    expect(kiloReading(null, null, { isEnabled: "yes" }).autoTopUp).toEqual({ enabled: true, method: null });
    expect(kiloReading({ autoTopUpEnabled: "off" }, null, {}).autoTopUp).toEqual({ enabled: false, method: null });
    expect(kiloSnapshot(kiloReading(null, null, { active: "on" })).details).toContainEqual({
      label: "Activity",
      value: "Auto top-up: enabled",
    });
  });

  it("moves Kilo Pass up to primary when there are no credits", () => {
    const snapshot = kiloSnapshot(kiloReading(null, { subscription: { currentPeriodUsageUsd: 5, currentPeriodBaseCreditsUsd: 19 } }, null));
    expect(snapshot.primary).toMatchObject({ label: "Kilo Pass", usedPercent: 26.32 });
    expect(snapshot.secondary).toBeNull();
  });
});

describe("kilo organizations", () => {
  it("discovers the organizations with the same credential, on tRPC", async () => {
    await kilo();
    const discovery = sim.sim.requests.find((r) => r.path === KILO_ORGANIZATIONS_PATH)!;
    expect(discovery.origin).toBe("https://app.kilo.ai");
    expect(discovery.query.get("batch")).toBe("1");
    expect(JSON.parse(discovery.query.get("input")!)).toEqual({ "0": { json: null } });
    expect(discovery.headers.authorization).toBe(`Bearer ${KILO_TEST_KEY}`);
  });

  it("reads the organization of organizationId with the organization header, and names it", async () => {
    const usage = await withConfig({ organizationId: KILO_TEST_ORGANIZATION_ID }, () => kilo());
    expect(usageCalls()[0]!.headers["x-kilocode-organizationid"]).toBe(KILO_TEST_ORGANIZATION_ID);
    expect(usage).toMatchObject({ ok: true, plan: null, secondary: null });
    expect(usage.primary).toMatchObject({ label: "Credits", used: 57.5, limit: 200, usedPercent: 28.75 });
    expect(usage.details).toEqual([
      { label: "Scope", value: `Acme Robotics (organization ${KILO_TEST_ORGANIZATION_ID})` },
      ORGANIZATIONS,
      { label: "Activity", value: "Auto top-up: invoice" },
    ]);
  });

  it("keeps the scope on the CLI session when auto mode falls back to it", async () => {
    writeCliSession();
    sim.sim.setScenario("kilo", "api_key_rejected");
    const usage = await withConfig({ organizationId: KILO_TEST_ORGANIZATION_ID }, () => kilo());
    expect(usage).toMatchObject({ ok: true, source: "cli" });
    expect(usageCalls().map((r) => r.headers["x-kilocode-organizationid"])).toEqual([KILO_TEST_ORGANIZATION_ID, KILO_TEST_ORGANIZATION_ID]);
  });

  it("points at organizationId when an organization is refused", async () => {
    const usage = await withConfig({ organizationId: "org-not-mine" }, () => kilo());
    expect(usage.error).toMatchObject({ code: "forbidden" });
    expect(usage.error?.hint).toContain("The organization may not be one this account can read");
    expect(usage.error?.hint).toContain("providers[kilo].organizationId");
    expect(usage.error?.hint).toContain("quotabar config set-key kilo --stdin");
  });

  it("refuses an organizationId that is not an id, before any request", async () => {
    for (const organizationId of ["Acme Robotics", { id: 1 }]) {
      const usage = await withConfig({ organizationId }, () => kilo());
      expect(usage.error).toMatchObject({ code: "not_configured", message: "Kilo organizationId is not an organization id." });
      expect(usage.error?.hint).toContain("providers[kilo].organizationId");
    }
    expect(sim.sim.requests).toHaveLength(0);
  });

  it("accepts the organizations inside an object of the tRPC result", async () => {
    sim.sim.setScenario("kilo", "orgs_nested");
    expect((await kilo()).details).toContainEqual(ORGANIZATIONS);
  });

  it("asks the profile of api.kilo.ai when the tRPC procedure is not found", async () => {
    sim.sim.setScenario("kilo", "orgs_via_profile");
    const usage = await kilo();
    expect(usage.details).toContainEqual(ORGANIZATIONS);
    const profile = sim.sim.requests.find((r) => r.path === "/api/profile")!;
    expect(profile.origin).toBe("https://api.kilo.ai");
    expect(profile.headers.authorization).toBe(`Bearer ${KILO_TEST_KEY}`);
  });

  it("never fails the usage when discovery fails; the scope is then named by its id", async () => {
    sim.sim.setScenario("kilo", "orgs_unavailable");
    const personal = await kilo();
    expect(personal.ok).toBe(true);
    expect(personal.details).toEqual([PERSONAL, { label: "Activity", value: "Auto top-up: visa" }]);
    const scoped = await withConfig({ organizationId: KILO_TEST_ORGANIZATION_ID }, () => kilo());
    expect(scoped.details[0]).toEqual({ label: "Scope", value: `Organization ${KILO_TEST_ORGANIZATION_ID}` });
  });

  it("reads the three accepted discovery shapes, bounded, and nothing else", () => {
    const expected = [
      { id: KILO_TEST_ORGANIZATION_ID, name: "Acme Robotics", role: "owner" },
      { id: "0b7e4a19-2c3d-4e5f-8a9b-1c2d3e4f5a6b", name: "Beta Labs", role: "member" },
    ];
    for (const name of ["organizations-trpc.json", "organizations-nested.json", "profile.json"]) {
      expect(organizationsIn(fixture(name))).toEqual(expected);
    }
    expect(organizationsIn('[{"result":{"data":{"json":{"plan":"x"}}}}]')).toBeNull();
    expect(organizationsIn(fixture("organizations-not-found.json"))).toBeNull();
    const many = JSON.stringify({ organizations: Array.from({ length: 80 }, (_, i) => ({ id: i, name: "n".repeat(500) })) });
    const read = organizationsIn(many)!;
    expect(read).toHaveLength(50);
    expect(read[0]).toEqual({ id: "0", name: "n".repeat(80), role: null });
    expect(organizationsIn('{"organizations":[{"id":"bad id"},{"name":"no id"},"text"]}')).toEqual([]);
  });

  it("says when the chosen organization is not among those discovered, and lists at most five", () => {
    const organizations = Array.from({ length: 7 }, (_, i) => ({ id: `org-${i}`, name: i === 0 ? null : `Team ${i}`, role: null }));
    const details = kiloSnapshot(kiloReading(null, null, null, { organizationId: "org-9", organizations })).details;
    expect(details).toEqual([
      { label: "Scope", value: "Organization org-9 (not among this account's organizations)" },
      { label: "Organizations", value: "org-0, Team 1 (org-1), Team 2 (org-2), Team 3 (org-3), Team 4 (org-4), and 2 more" },
    ]);
  });
});

describe("kilo negative amounts", () => {
  it("fails a negative balance as a parse error naming the field, not as an exhausted meter", async () => {
    sim.sim.setScenario("kilo", "negative_balance");
    expect((await kilo()).error).toMatchObject({
      code: "parse",
      message: "Failed to parse Kilo API response: user.getCreditBlocks: totalBalance_mUsd: must not be negative (got -2500000)",
    });
  });

  it("names the negative field of credit blocks, generic credits and the pass", () => {
    expect(() => kiloReading({ creditBlocks: [{ amount_mUsd: 5000000, balance_mUsd: -1 }] }, null, null)).toThrow(
      "creditBlocks[0].balance_mUsd: must not be negative (got -1)",
    );
    expect(() => kiloReading({ creditsUsed: 10, creditsRemaining: -4 }, null, null)).toThrow(
      "user.getCreditBlocks: creditsRemaining: must not be negative (got -4)",
    );
    expect(() => kiloReading(null, { subscription: { currentPeriodUsageUsd: -1, currentPeriodBaseCreditsUsd: 19 } }, null)).toThrow(
      "kiloPass.getState: subscription.currentPeriodUsageUsd: must not be negative (got -1)",
    );
    expect(() => kiloReading(null, { remainingCents: -250, amountCents: 1900 }, null)).toThrow(
      "kiloPass.getState: remainingCents: must not be negative (got -250)",
    );
  });
});
