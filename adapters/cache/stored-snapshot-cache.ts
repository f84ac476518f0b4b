import { keyOfUsage, type AccountKey } from "../../domain/account.js";
import type { ProviderUsage } from "../../domain/usage-document.js";
import type { SnapshotCache } from "../../ports/snapshot-cache.js";
import type { TextStore } from "../../ports/text-store.js";
import { credentialScope } from "./credential-scope.js";
import { failureKey, originKey, snapshotKey } from "./snapshot-keys.js";

/**
 * One snapshot per account of a provider, stamped with a hash of the credential and the origin map it was
 * fetched with (never the credential itself). A different key, or the simulator's origin map,
 * reads as "no snapshot"; so does a damaged entry. Snapshots hold no secret. The entry also names
 * its origin map alone (originKey), for pollers that read it without a credential (LatestSnapshots).
 */
export class StoredSnapshotCache implements SnapshotCache {
  constructor(
    private readonly store: TextStore,
    /** What the requests went to (QUOTABAR_ORIGIN_MAP), so a demo's numbers never pass for real ones. */
    private readonly origins = "",
  ) {}

  async read(key: AccountKey, credential: readonly string[]): Promise<ProviderUsage | null> {
    try {
      const text = await this.store.read(snapshotKey(key));
      if (text === null) return null;
      const entry = (await import("./snapshot-entry.js")).SnapshotEntrySchema.safeParse(JSON.parse(text));
      return entry.success && entry.data.scope === this.scope(credential) ? entry.data.usage : null;
    } catch {
      return null;
    }
  }

  async write(usage: ProviderUsage, credential: readonly string[]): Promise<void> {
    const entry = { scope: this.scope(credential), origins: originKey(this.origins), usage };
    await this.store.write(snapshotKey(keyOfUsage(usage)), JSON.stringify(entry));
  }

  /** Forgets the snapshot and the last noted failure (`quotabar cache clear`, logout). */
  async remove(key: AccountKey): Promise<void> {
    await Promise.all([this.store.remove(snapshotKey(key)), this.store.remove(failureKey(key))]);
  }

  private scope(credential: readonly string[]): string {
    return credentialScope(this.origins, credential);
  }
}
