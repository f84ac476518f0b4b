import type { ProviderModule } from "../../ports/provider-module.js";
import { withFreshCookieRetry } from "../kit/index.js";
import { descriptor } from "./descriptor.js";
import { kimiApi, kimiCli, kimiWeb } from "./wire.js";

export const kimi: ProviderModule = {
  descriptor,
  // auto: the Kimi Code API key, then the Kimi Code CLI's sign-in, then the console's kimi-auth cookie
  // a refused kimi-auth token from the cache is dropped and the browsers read afresh, once, in the same run
  strategies: [kimiApi, kimiCli, ...withFreshCookieRetry(kimiWeb)],
  simulator: async () => (await import("./simulator.js")).kimiUpstream,
};
