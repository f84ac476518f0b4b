import type { AccountKey } from "../domain/account.js";
import type { ProviderUsage } from "../domain/usage-document.js";

/**
 * The last good snapshot per account of a provider, served as stale when a fresh fetch fails. It belongs to the
 * credential (and the origin map) it was fetched with: another credential never sees it.
 */
export interface SnapshotCache {
  read(key: AccountKey, credential: readonly string[]): Promise<ProviderUsage | null>;
  /** Kept under the usage's own account (its `id` and `account`). */
  write(usage: ProviderUsage, credential: readonly string[]): Promise<void>;
  remove(key: AccountKey): Promise<void>;
}
