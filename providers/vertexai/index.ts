import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { vertexMonitoring } from "./wire.js";

export const vertexai: ProviderModule = {
  descriptor,
  strategies: [vertexMonitoring],
  simulator: async () => (await import("./simulator.js")).vertexUpstream,
};
