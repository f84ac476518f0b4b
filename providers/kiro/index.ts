import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { kiroCli } from "./wire.js";

/** No HTTP upstream: `simulator.ts` writes a stand-in kiro-cli instead. */
export const kiro: ProviderModule = { descriptor, strategies: [kiroCli] };
