import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { kimiApi, kimiCli, kimiWeb } from "./wire.js";

export const kimi: ProviderModule = {
  descriptor,
  // auto: the Kimi Code API key, then the Kimi Code CLI's sign-in, then the console's kimi-auth cookie
  strategies: [kimiApi, kimiCli, kimiWeb],
  simulator: async () => (await import("./simulator.js")).kimiUpstream,
};
