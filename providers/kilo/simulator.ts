import type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { bearer } from "../../simulator/auth.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(import.meta.url);

export const KILO_TEST_KEY = "kilo_simulator_api_key_0123456789";
/** The `kilo.access` token of `fixtures/cli-session.json` (the Kilo CLI's auth.json). */
export const KILO_CLI_TEST_TOKEN = "kilo-cli-simulator-access-0123456789";

export const KILO_BATCH_PATH = "/api/trpc/user.getCreditBlocks,kiloPass.getState,user.getAutoTopUpPaymentMethod";

const json = (name: string, status = 200): SimReply => ({ status, body: fixture(name), headers: { "content-type": "application/json" } });
const unauthorized = (): SimReply => ({ ...json("trpc-unauthorized.json", 401) });

/** Scenarios named `api_key_*` and `trpc_unauthorized` reject only the API key, so auto mode can fall back to the CLI session. */
function answer(request: SimRequest, scenario: string): SimReply {
  const input = request.query.get("input");
  const expected = { "0": { json: null }, "1": { json: null }, "2": { json: null } };
  if (request.query.get("batch") !== "1" || input === null || JSON.stringify(JSON.parse(input)) !== JSON.stringify(expected)) {
    return { status: 400, json: [{ error: { json: { message: "bad batch input", data: { code: "BAD_REQUEST" } } } }] };
  }
  const token = bearer(request);
  if (token !== KILO_TEST_KEY && token !== KILO_CLI_TEST_TOKEN) return unauthorized();
  const isApiKey = token === KILO_TEST_KEY;
  if (scenario === "unauthorized") return unauthorized();
  if (scenario === "api_key_rejected" && isApiKey) return unauthorized();
  if (scenario === "api_key_forbidden" && isApiKey) return { status: 403, json: { error: "forbidden" } };
  if (scenario === "trpc_unauthorized" && isApiKey) return json("trpc-unauthorized.json");
  if (scenario === "not_found") return { status: 404, json: { error: "not found" } };
  if (scenario === "empty") return json("zero-balance.json");
  if (scenario === "sparse") return json("sparse-optional-error.json");
  if (scenario === "multi_status") return json("sparse-optional-error.json", 207);
  if (scenario === "malformed") return json("malformed.json");
  if (scenario === "unexpected_shape") return json("unexpected-shape.json");
  return json("pro-pass-topup.json");
}

/** Kilo Code: one batched tRPC GET, authorised by an API key or by the Kilo CLI's access token. */
export const kiloUpstream: SimulatedUpstream = {
  id: "kilo",
  origins: ["https://app.kilo.ai"],
  env: { KILO_API_KEY: KILO_TEST_KEY },
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
    "slow",
    "upstream_500",
  ],
  routes: [{ method: "GET", path: KILO_BATCH_PATH, handle: answer }],
};
