import type { ProviderModule } from "../../ports/provider-module.js";
import { withFreshCookieRetry } from "../kit/index.js";
import { descriptor } from "./descriptor.js";
import { opencodeWeb } from "./wire.js";

export const opencode: ProviderModule = {
  descriptor,
  // an invalid session from the cache is dropped and the browser read afresh, once, in the same run
  strategies: withFreshCookieRetry(opencodeWeb),
  simulator: async () => (await import("./simulator.js")).opencodeUpstream,
};
