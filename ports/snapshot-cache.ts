import type { ProviderUsage } from "../domain/usage-document.js";

/** The last good snapshot per provider, served as stale when a fresh fetch fails. */
export interface SnapshotCache {
  read(providerId: string): Promise<ProviderUsage | null>;
  write(usage: ProviderUsage): Promise<void>;
}
