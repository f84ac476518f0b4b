import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { opencodeWeb } from "./wire.js";

export const opencode: ProviderModule = {
  descriptor,
  strategies: [opencodeWeb],
  simulator: async () => (await import("./simulator.js")).opencodeUpstream,
};
