import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { kiroCli } from "./wire.js";

/** No HTTP upstream: its simulator writes a stand-in kiro-cli into the demo's home instead. */
export const kiro: ProviderModule = {
  descriptor,
  strategies: [kiroCli],
  simulator: async () => (await import("./simulator.js")).kiroUpstream,
};
