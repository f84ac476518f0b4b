import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { kimiWeb } from "./wire.js";

export const kimi: ProviderModule = {
  descriptor,
  strategies: [kimiWeb],
  simulator: async () => (await import("./simulator.js")).kimiUpstream,
};
