import type { ProviderModule } from "../../ports/provider-module.js";
import { minimaxApi } from "./api.js";
import { descriptor } from "./descriptor.js";
import { minimaxWeb } from "./web.js";

/** The API token first, then a web session (for now a pasted cookie header or cURL command). */
export const minimax: ProviderModule = {
  descriptor,
  strategies: [minimaxApi, minimaxWeb],
  simulator: async () => (await import("./simulator.js")).minimaxUpstream,
};
