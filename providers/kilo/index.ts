import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { kiloApi, kiloCli } from "./wire.js";

export const kilo: ProviderModule = {
  descriptor,
  strategies: [kiloApi, kiloCli],
  simulator: async () => (await import("./simulator.js")).kiloUpstream,
};
