import type { ProviderCatalog, ProviderCode, ProviderModule } from "../ports/provider-module.js";
import type { ProviderDescriptor } from "./descriptor.js";

/** A provider as a catalog lists it: its descriptor, and how to load its code. */
export interface CatalogEntry {
  descriptor: ProviderDescriptor;
  load: () => Promise<ProviderCode>;
}

/** A catalog over these entries, in their order; each module is loaded once, when first asked for. */
export function lazyCatalog(entries: readonly CatalogEntry[]): ProviderCatalog {
  const descriptors = entries.map((e) => e.descriptor);
  const loaded = new Map<string, Promise<ProviderModule>>();
  return {
    descriptors: () => descriptors,
    descriptor: (id) => descriptors.find((d) => d.id === id),
    load: async (id) => {
      const entry = entries.find((e) => e.descriptor.id === id);
      if (!entry) return undefined;
      let module = loaded.get(id);
      if (!module) {
        module = entry.load().then((code) => ({ descriptor: entry.descriptor, ...code }));
        loaded.set(id, module);
        // a failed load is tried again next time rather than kept
        module.catch(() => loaded.delete(id));
      }
      return module;
    },
  };
}

/** A catalog of modules already in hand (tests, embedders). */
export function catalogOf(modules: readonly ProviderModule[]): ProviderCatalog {
  return lazyCatalog(modules.map((module) => ({ descriptor: module.descriptor, load: async () => module })));
}
