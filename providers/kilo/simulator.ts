import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { bearer } from "../../simulator/auth.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

export const KILO_TEST_KEY = "kilo_sim_k3y_0123456789abcdef";
/** The `kilo.access` token of `fixtures/cli-session.json` (the Kilo CLI's auth.json). */
export const KILO_CLI_TEST_TOKEN = "kilo-cli-simulator-access-0123456789";

export const KILO_BATCH_PATH = "/api/trpc/user.getCreditBlocks,kiloPass.getState,user.getAutoTopUpPaymentMethod";
export const KILO_ORGANIZATIONS_PATH = "/api/trpc/user.getOrganizations";
/** Acme Robotics, the first organization of `fixtures/organizations-trpc.json`; other ids are refused. */
export const KILO_TEST_ORGANIZATION_ID = "6f0d2c1e-5b7a-4d0c-9a3e-2b8f1c4d7e90";

const json = (name: string, status = 200): SimReply => ({ status, body: fixture(name), headers: { "content-type": "application/json" } });
const unauthorized = (): SimReply => ({ ...json("trpc-unauthorized.json", 401) });

/** A tRPC batch without input for `count` procedures; anything else is a 400. */
function badBatch(request: SimRequest, count: number): SimReply | null {
  const input = request.query.get("input");
  const expected = Object.fromEntries(Array.from({ length: count }, (_, index) => [String(index), { json: null }]));
  if (request.query.get("batch") === "1" && input !== null && JSON.stringify(JSON.parse(input)) === JSON.stringify(expected)) return null;
  return { status: 400, json: [{ error: { json: { message: "bad batch input", data: { code: "BAD_REQUEST" } } } }] };
}

const knownToken = (request: SimRequest) => [KILO_TEST_KEY, KILO_CLI_TEST_TOKEN].includes(bearer(request) ?? "");

/** Scenarios named `api_key_*` and `trpc_unauthorized` reject only the API key, so auto mode can fall back to the CLI session. */
function answer(request: SimRequest, scenario: string): SimReply {
  const bad = badBatch(request, 3);
  if (bad) return bad;
  if (!knownToken(request)) return unauthorized();
  const isApiKey = bearer(request) === KILO_TEST_KEY;
  if (scenario === "unauthorized") return unauthorized();
  if (scenario === "api_key_rejected" && isApiKey) return unauthorized();
  if (scenario === "api_key_forbidden" && isApiKey) return { status: 403, json: { error: "forbidden" } };
  if (scenario === "trpc_unauthorized" && isApiKey) return json("trpc-unauthorized.json");
  if (scenario === "not_found") return { status: 404, json: { error: "not found" } };
  const organization = request.headers["x-kilocode-organizationid"];
  if (organization !== undefined) {
    return organization === KILO_TEST_ORGANIZATION_ID ? json("organization-credits.json") : json("organization-forbidden.json", 403);
  }
  if (scenario === "negative_balance") return json("negative-balance.json");
  if (scenario === "empty") return json("zero-balance.json");
  if (scenario === "sparse") return json("sparse-optional-error.json");
  if (scenario === "multi_status") return json("sparse-optional-error.json", 207);
  if (scenario === "malformed") return json("malformed.json");
  if (scenario === "unexpected_shape") return json("unexpected-shape.json");
  return json("pro-pass-topup.json");
}

/** Organization discovery: tRPC by default, a 404 (so the profile answers) or a 500 when the scenario says. */
function organizations(request: SimRequest, scenario: string): SimReply {
  const bad = badBatch(request, 1);
  if (bad) return bad;
  if (!knownToken(request)) return unauthorized();
  if (scenario === "orgs_nested") return json("organizations-nested.json");
  if (scenario === "orgs_via_profile") return json("organizations-not-found.json", 404);
  if (scenario === "orgs_unavailable") return { status: 500, body: "Internal Server Error" };
  return json("organizations-trpc.json");
}

const profile = (request: SimRequest): SimReply => (knownToken(request) ? json("profile.json") : unauthorized());

/**
 * Kilo Code: one batched tRPC GET, authorised by an API key or by the Kilo CLI's access token, for
 * the personal account or (header X-KILOCODE-ORGANIZATIONID) an organization; organization
 * discovery on tRPC, with the profile of api.kilo.ai behind it.
 */
export const kiloUpstream: SimulatedUpstream = {
  id: "kilo",
  origins: ["https://app.kilo.ai", "https://api.kilo.ai"],
  env: { KILO_API_KEY: KILO_TEST_KEY },
  // after the credit blocks' effective dates, 18 days before the Kilo Pass bills again
  recordedAt: "2026-03-10T12:00:00Z",
  scenarios: [
    "ok",
    "empty",
    "sparse",
    "multi_status",
    "unauthorized",
    "api_key_rejected",
    "api_key_forbidden",
    "trpc_unauthorized",
    "not_found",
    "malformed",
    "unexpected_shape",
    "negative_balance",
    "orgs_nested",
    "orgs_via_profile",
    "orgs_unavailable",
    "slow",
    "upstream_500",
  ],
  routes: [
    { method: "GET", path: KILO_BATCH_PATH, handle: answer },
    { method: "GET", path: KILO_ORGANIZATIONS_PATH, handle: organizations },
    { method: "GET", path: "/api/profile", handle: profile },
  ],
};
