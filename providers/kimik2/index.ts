import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { kimik2Api } from "./wire.js";

export const kimik2: ProviderModule = {
  descriptor,
  strategies: [kimik2Api],
  simulator: async () => (await import("./simulator.js")).kimik2Upstream,
};
