import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { ollamaWeb } from "./wire.js";

export const ollama: ProviderModule = {
  descriptor,
  strategies: [ollamaWeb],
  simulator: async () => (await import("./simulator.js")).ollamaUpstream,
};
