/**
 * Providers whose sources have not landed yet: the registry lists them (so a shared config file that
 * names them stays valid) but this version cannot read them. `listProviders()` says so in
 * `supported`; the list command keeps them apart, in a Coming Soon section shown on request, and
 * the manifest marks their preferences. Pure and free of `@raycast/*`.
 */
import { PROVIDER_CATALOG } from "../../providers/registry.js";

/** The list command's checkbox preference that shows the Coming Soon section. */
export const SHOW_COMING_SOON = "showComingSoon";

/** Whether this version reads a provider: its module has sources (what `listProviders()` reports as `supported`). */
export function canRead(id: string): boolean {
  return (PROVIDER_CATALOG.get(id)?.strategies.length ?? 0) > 0;
}

/** The providers still to come, in registry order. */
export function comingSoonProviders(): { id: string; name: string }[] {
  return PROVIDER_CATALOG.all()
    .filter((module) => module.strategies.length === 0)
    .map(({ descriptor }) => ({ id: descriptor.id, name: descriptor.name }));
}
