import type { SimulatedUpstream } from "../ports/simulated-upstream.js";
import { PROVIDER_CATALOG, PROVIDER_IDS } from "../providers/registry.js";
import { STATUS_PAGE_UPSTREAMS } from "./status-pages.js";

/** Every upstream the simulator plays: each provider module's own (from the registry), then the status pages. */
export async function simulatedUpstreams(): Promise<SimulatedUpstream[]> {
  const modules = await Promise.all(PROVIDER_IDS.map((id) => PROVIDER_CATALOG.load(id)));
  const providers = await Promise.all(modules.flatMap((m) => (m?.simulator ? [m.simulator()] : [])));
  return [...providers, ...STATUS_PAGE_UPSTREAMS];
}

/** Common scenario: every upstream answers after this long. */
export const SLOW_MS = 60_000;
