import type { ProviderConfigEntry, QuotabarConfig } from "../ports/config-store.js";

/** A provider's config entry, or an empty one. */
export function entryOf(config: QuotabarConfig, id: string): ProviderConfigEntry {
  return config.providers.find((e) => e.id === id) ?? { id };
}
