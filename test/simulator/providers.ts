import { copilotSim } from "./routes/copilot.js";
import { kiloSim } from "./routes/kilo.js";
import { kimiSim } from "./routes/kimi.js";
import { kimik2Sim } from "./routes/kimik2.js";
import { minimaxSim } from "./routes/minimax.js";
import { openrouterSim } from "./routes/openrouter.js";
import { STATUS_PAGE_SIMS } from "./routes/status.js";
import { warpSim } from "./routes/warp.js";
import { zaiSim } from "./routes/zai.js";
import type { SimProvider } from "./types.js";

/** Every upstream the simulator plays; each provider adds its routes file here. */
export const SIM_PROVIDERS: readonly SimProvider[] = [
  copilotSim,
  openrouterSim,
  zaiSim,
  warpSim,
  kimiSim,
  kiloSim,
  minimaxSim,
  kimik2Sim,
  ...STATUS_PAGE_SIMS,
];
