import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { ampWeb } from "./wire.js";

export const amp: ProviderModule = {
  descriptor,
  strategies: [ampWeb],
  simulator: async () => (await import("./simulator.js")).ampUpstream,
};
