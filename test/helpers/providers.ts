import type { ProviderModule } from "../../ports/provider-module.js";
import { PROVIDER_CATALOG, PROVIDER_IDS } from "../../providers/registry.js";

/** Every provider's whole module, loaded (the registry loads each on first use), in display order. */
export const PROVIDERS: readonly ProviderModule[] = await Promise.all(
  PROVIDER_IDS.map(async (id) => (await PROVIDER_CATALOG.load(id)) as ProviderModule),
);
