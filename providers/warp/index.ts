import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { warpApi } from "./wire.js";

export const warp: ProviderModule = {
  descriptor,
  strategies: [warpApi],
  simulator: async () => (await import("./simulator.js")).warpUpstream,
};
