import type { SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { bearer } from "../../simulator/auth.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

export const WARP_TEST_KEY = "wk-simulator-0123456789abcdef";

/** Warp: POST /graphql/v2?op=GetRequestLimitInfo; the edge rate-limits clients that do not look like Warp. */
export const warpUpstream: SimulatedUpstream = {
  id: "warp",
  origins: ["https://app.warp.dev"],
  env: { WARP_API_KEY: WARP_TEST_KEY },
  // 11 days before the monthly refresh of limited.json
  recordedAt: "2026-11-20T12:00:00Z",
  scenarios: ["ok", "unlimited", "string_counts", "non_numeric", "unauthorized", "malformed", "slow", "upstream_500"],
  routes: [
    {
      method: "POST",
      path: "/graphql/v2",
      handle(request, scenario) {
        if (!String(request.headers["user-agent"] ?? "").startsWith("Warp/")) return { status: 429, body: "Rate exceeded." };
        if (request.query.get("op") !== "GetRequestLimitInfo") return { status: 400, json: { errors: [{ message: "unknown op" }] } };
        const body = JSON.parse(request.body || "{}") as { operationName?: string; query?: string };
        if (body.operationName !== "GetRequestLimitInfo" || !body.query?.includes("requestLimitInfo")) {
          return { status: 400, json: { errors: [{ message: "Bad GraphQL request" }] } };
        }
        if (scenario === "unauthorized" || bearer(request) !== WARP_TEST_KEY) return { body: fixture("unauthorized.json") };
        if (scenario === "malformed") return { body: fixture("malformed.json") };
        if (scenario === "unlimited") return { body: fixture("unlimited.json") };
        // the reference sample with its counts as text and isUnlimited null, both accepted
        if (scenario === "string_counts") return { body: fixture("string-counts.json"), recordedAt: "2026-02-20T12:00:00Z" };
        if (scenario === "non_numeric") return { body: fixture("non-numeric.json") };
        return { body: fixture("limited.json") };
      },
    },
  ],
};
