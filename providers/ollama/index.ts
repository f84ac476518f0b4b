import type { ProviderModule } from "../../ports/provider-module.js";
import { withFreshCookieRetry } from "../kit/index.js";
import { descriptor } from "./descriptor.js";
import { ollamaWeb } from "./wire.js";

export const ollama: ProviderModule = {
  descriptor,
  // a refused cached header is dropped and the browser read afresh, once, in the same run
  strategies: withFreshCookieRetry(ollamaWeb),
  simulator: async () => (await import("./simulator.js")).ollamaUpstream,
};
