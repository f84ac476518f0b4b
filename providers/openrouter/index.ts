import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { openrouterApi } from "./wire.js";

export const openrouter: ProviderModule = {
  descriptor,
  strategies: [openrouterApi],
  simulator: async () => (await import("./simulator.js")).openrouterUpstream,
};
