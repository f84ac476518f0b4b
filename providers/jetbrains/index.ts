import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { jetbrainsLocal } from "./wire.js";

export const jetbrains: ProviderModule = {
  descriptor,
  strategies: [jetbrainsLocal],
  simulator: async () => (await import("./simulator.js")).jetbrainsUpstream,
};
