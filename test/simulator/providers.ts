import { openrouterSim } from "./routes/openrouter.js";
import { STATUS_PAGE_SIMS } from "./routes/status.js";
import { warpSim } from "./routes/warp.js";
import { zaiSim } from "./routes/zai.js";
import type { SimProvider } from "./types.js";

/** Every upstream the simulator plays; each provider adds its routes file here. */
export const SIM_PROVIDERS: readonly SimProvider[] = [openrouterSim, warpSim, zaiSim, ...STATUS_PAGE_SIMS];
