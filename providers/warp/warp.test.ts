import { describe, expect, it } from "vitest";
import { useSimulator } from "../../test/helpers/harness.js";
import { warpSnapshot } from "./policy.js";
import { WARP_TEST_KEY } from "./simulator.js";
import { WARP_QUERY } from "./wire.js";

const sim = useSimulator();

async function warp(extra: Record<string, string | undefined> = {}) {
  const doc = await sim.quotabar(extra).usage({ providers: ["warp"] });
  return doc.providers[0]!;
}

describe("warp against the simulator", () => {
  it("sends the GetRequestLimitInfo request exactly as the Warp app does", async () => {
    await warp();
    const request = sim.sim.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/graphql/v2");
    expect(request.query.get("op")).toBe("GetRequestLimitInfo");
    expect(request.headers["user-agent"]).toBe("Warp/1.0");
    expect(request.headers.authorization).toBe(`Bearer ${WARP_TEST_KEY}`);
    expect(request.headers["x-warp-client-id"]).toBe("warp-app");
    expect(request.headers["x-warp-os-category"]).toBe("macOS");
    expect(request.headers["x-warp-os-version"]).toMatch(/^\d+\.\d+\.\d+$/);
    const body = JSON.parse(request.body);
    expect(body.operationName).toBe("GetRequestLimitInfo");
    expect(body.query).toBe(WARP_QUERY);
    expect(body.variables.requestContext.osContext).toMatchObject({ category: "macOS", name: "macOS" });
  });

  it("maps used/limit, the refresh time and pooled add-on credits", async () => {
    const usage = await warp();
    expect(usage.ok).toBe(true);
    expect(usage.primary).toMatchObject({
      label: "Credits",
      usedPercent: 81,
      used: 1215,
      limit: 1500,
      unlimited: false,
      resetsAt: "2026-12-01T19:16:33.462Z",
      // monthly credits: from 1 November to the refresh on 1 December
      windowMinutes: 30 * 1440,
    });
    expect(usage.secondary).toMatchObject({ label: "Add-on credits", usedPercent: 57.14, used: 20, limit: 35 });
    expect(usage.secondary?.note).toBe("10 credits expire on 2026-12-05 10:00 UTC");
    expect(usage.details).toEqual([]);
  });

  it("shows an unlimited plan as a full Unlimited bar without a reset", async () => {
    sim.sim.setScenario("warp", "unlimited");
    const usage = await warp();
    expect(usage.primary).toMatchObject({ unlimited: true, note: "Unlimited", resetsAt: null });
    expect(usage.plan).toBe("Unlimited");
    expect(usage.secondary).toBeNull();
  });

  it("reads the current shape with counts as text and a null isUnlimited", async () => {
    sim.sim.setScenario("warp", "string_counts");
    const usage = await warp();
    expect(usage).toMatchObject({ ok: true, plan: null });
    expect(usage.primary).toMatchObject({
      label: "Credits",
      usedPercent: 0.33,
      used: 5,
      limit: 1500,
      unlimited: false,
      resetsAt: "2026-02-28T19:16:33.462Z",
      // from 28 January to the refresh on 28 February
      windowMinutes: 31 * 1440,
    });
    expect(usage.secondary).toMatchObject({ label: "Add-on credits", usedPercent: 57.14, used: 20, limit: 35 });
    expect(usage.secondary?.note).toBe("10 credits expire on 2026-03-01 10:00 UTC");
  });

  it("fails a non-numeric count as a parse error naming the field, not as 0/0", async () => {
    sim.sim.setScenario("warp", "non_numeric");
    const usage = await warp();
    expect(usage).toMatchObject({ ok: false, primary: null });
    expect(usage.error?.code).toBe("parse");
    expect(usage.error?.message).toContain("data.user.user.requestLimitInfo.requestLimit");
  });

  it("says the API key was refused when Warp answers Unauthorized (with a 200), without a network hint", async () => {
    sim.sim.setScenario("warp", "unauthorized");
    const usage = await warp();
    expect(usage.error).toMatchObject({ code: "unauthorized", message: "Warp refused the API key (Unauthorized)" });
    expect(usage.error?.message).not.toContain("200");
    expect(usage.error?.hint).not.toMatch(/network/);
    expect(usage.error?.hint).toContain("quotabar config set-key warp --stdin");
  });

  it("says the key is missing and how to store it in this product's words", async () => {
    const usage = await warp({ WARP_API_KEY: undefined });
    expect(usage.error?.code).toBe("not_configured");
    expect(usage.error?.message).toBe("Missing Warp API key.");
    expect(usage.error?.hint).toBe("Run `quotabar config set-key warp --stdin` to store the key, or export WARP_API_KEY or WARP_TOKEN.");
  });

  it("accepts WARP_TOKEN and warns when a key does not start with wk-", async () => {
    const usage = await warp({ WARP_API_KEY: undefined, WARP_TOKEN: "not-a-wk-key" });
    expect(usage.error?.code).toBe("unauthorized"); // the simulator only knows its own key
    expect(sim.sim.requests[0]!.headers.authorization).toBe("Bearer not-a-wk-key");
  });

  it("reports a body without requestLimitInfo as a parse error", async () => {
    sim.sim.setScenario("warp", "malformed");
    const usage = await warp();
    expect(usage.error?.code).toBe("parse");
    expect(usage.error?.message).toContain("data.user");
  });

  it("maps an HTTP 500 to upstream with the API-error hint", async () => {
    sim.sim.setScenario("warp", "upstream_500");
    const usage = await warp();
    expect(usage.error).toMatchObject({ code: "upstream", message: "Warp API error (500): Internal Server Error" });
  });
});

describe("warp policy", () => {
  it("warns, without rejecting, when the key does not start with wk-", async () => {
    const reading = { isUnlimited: false, requestLimit: 100, requestsUsed: 0, nextRefreshTime: null, grants: [] };
    expect(warpSnapshot({ ...reading, keyLooksUnusual: true }).details).toEqual([
      { label: "Warning", value: "The API key does not start with wk-" },
    ]);
    expect(warpSnapshot({ ...reading, keyLooksUnusual: false }).details).toEqual([]);
  });

  it("treats grants without a total but with credits left as 0 % used, and shows 0/0 plans as 0 %", async () => {
    const snapshot = warpSnapshot({
      isUnlimited: false,
      requestLimit: 0,
      requestsUsed: 0,
      nextRefreshTime: "2026-12-01T00:00:00Z",
      grants: [{ granted: 0, remaining: 5, expiration: null }],
      keyLooksUnusual: false,
    });
    expect(snapshot.primary).toMatchObject({ usedPercent: 0, resetsAt: null });
    expect(snapshot.secondary).toMatchObject({ usedPercent: 0, note: null });
  });
});
