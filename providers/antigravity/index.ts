import type { ProviderModule } from "../../ports/provider-module.js";
import { descriptor } from "./descriptor.js";
import { antigravityLocal } from "./wire.js";

/** No simulator: the upstream is a local process found with ps and lsof, not an origin the simulator can stand in for. */
export const antigravity: ProviderModule = { descriptor, strategies: [antigravityLocal] };
