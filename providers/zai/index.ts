import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { zaiApi } from "./wire.js";

export const zai: ProviderModule = {
  descriptor,
  strategies: [zaiApi],
  simulator: async () => (await import("./simulator.js")).zaiUpstream,
};
