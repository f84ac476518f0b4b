import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";

/** Listed so one config file serves quotabar and CodexBar; its sources are still to come. */
export const kiro: ProviderModule = { descriptor, strategies: [] };
