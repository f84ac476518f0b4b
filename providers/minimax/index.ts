import type { ProviderModule } from "../../ports/provider-module.js";
import { withFreshCookieRetry } from "../kit/index.js";
import { minimaxApi } from "./api.js";
import { descriptor } from "./descriptor.js";
import { minimaxWeb } from "./web.js";

/** The API token first, then a web session: the cached one, a browser's (with its Local Storage token), the manual header. */
export const minimax: ProviderModule = {
  descriptor,
  // a refused cached session is dropped and the browsers read afresh, once, in the same run
  strategies: [minimaxApi, ...withFreshCookieRetry(minimaxWeb)],
  simulator: async () => (await import("./simulator.js")).minimaxUpstream,
};
