import type { ProviderUsage } from "../domain/usage-document.js";

/**
 * The last good snapshot per provider, served as stale when a fresh fetch fails. It belongs to the
 * credential (and the origin map) it was fetched with: another credential never sees it.
 */
export interface SnapshotCache {
  read(providerId: string, credential: readonly string[]): Promise<ProviderUsage | null>;
  write(usage: ProviderUsage, credential: readonly string[]): Promise<void>;
  remove(providerId: string): Promise<void>;
}
