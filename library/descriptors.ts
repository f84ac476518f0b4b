import type { ProviderDescriptor } from "../domain/descriptor.js";
import { PROVIDERS } from "../providers/registry.js";

/**
 * Every provider's descriptor, in display order, and their ids. In the built library this module
 * is replaced by the same values as a literal (scripts/build.mjs), so importing the library loads
 * no provider module; from the sources it reads the registry.
 */
export const DESCRIPTORS: readonly ProviderDescriptor[] = PROVIDERS.map((m) => m.descriptor);

/** The stable ids, in display order. */
export const PROVIDER_IDS: readonly string[] = DESCRIPTORS.map((d) => d.id);
