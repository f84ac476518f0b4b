import type { ProviderModule } from "../../ports/provider-module.js";
import { withFreshCookieRetry } from "../kit/index.js";
import { descriptor } from "./descriptor.js";
import { ampWeb } from "./wire.js";

export const amp: ProviderModule = {
  descriptor,
  // a refused cached header is dropped and the browsers read afresh, once, in the same run
  strategies: withFreshCookieRetry(ampWeb),
  simulator: async () => (await import("./simulator.js")).ampUpstream,
};
