import type { SimulatedUpstream } from "../ports/simulated-upstream.js";
import { fixturesOf } from "./fixtures.js";

const fixture = fixturesOf(import.meta.url);

/**
 * LiteLLM's public price list as `quotabar cost --update-prices` fetches it (raw.githubusercontent.com).
 * `prices/litellm.json` holds the rows ccusage 20.0.24 bundles from it, in LiteLLM's own field names.
 * `partial` cuts the list to its non-Claude, non-GPT-5 rows (a truncated or different file);
 * `not_json` answers an HTML error page with 200. Started on its own (`ProviderSimulator.start({ providers:
 * [priceListSim] })`): it is no provider, so it is not among `simulatedUpstreams()`, whose other
 * upstreams the tests take for providers and status pages.
 */
export const priceListSim: SimulatedUpstream = {
  id: "price-list",
  origins: ["https://raw.githubusercontent.com"],
  env: {},
  scenarios: ["default", "partial", "not_json"],
  routes: [
    {
      method: "GET",
      path: "/BerriAI/litellm/main/model_prices_and_context_window.json",
      handle(_request, scenario) {
        const list = fixture("prices/litellm.json");
        if (scenario === "not_json")
          return { status: 200, body: "<!doctype html><title>Rate limited</title>", headers: { "content-type": "text/html" } };
        if (scenario === "partial") {
          const rows = Object.entries(JSON.parse(list) as Record<string, unknown>).filter(
            ([k]) => !k.startsWith("claude-") && !k.startsWith("gpt-5"),
          );
          return { json: Object.fromEntries(rows) };
        }
        return { body: list, headers: { "content-type": "text/plain; charset=utf-8" } };
      },
    },
  ],
};
