/**
 * Providers whose sources have not landed yet: the registry lists them (so a shared config file that
 * names them stays valid) but this version cannot read them. `listProviders()` says so in
 * `supported`; the list command keeps them apart, in a Coming Soon section shown on request, and
 * the manifest marks their preferences. Pure and free of `@raycast/*`.
 */
import { DESCRIPTORS } from "../../providers/registry.js";

/** The list command's checkbox preference that shows the Coming Soon section. */
export const SHOW_COMING_SOON = "showComingSoon";

/**
 * Whether this version reads a provider (what `listProviders()` reports as `supported`): every
 * provider of the registry does today (test/core/architecture.test.ts checks that each module has
 * strategies), so this is whether the id is registered.
 */
export function canRead(id: string): boolean {
  return DESCRIPTORS.some((d) => d.id === id);
}

/** The providers still to come, in registry order. */
export function comingSoonProviders(): { id: string; name: string }[] {
  return DESCRIPTORS.filter((d) => !canRead(d.id)).map(({ id, name }) => ({ id, name }));
}
