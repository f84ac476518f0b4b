import { ProviderUsageSchema, type ProviderUsage } from "../../../domain/usage-document.js";
import type { SnapshotCache } from "../../../ports/snapshot-cache.js";
import type { SyncKeyValueStore } from "./key-value.js";

/**
 * The last good snapshot per provider in Raycast's `Cache`, shared by the menu bar and the list.
 * A snapshot holds no secret (the document never does), so the unencrypted cache is fine.
 */
export class CacheSnapshotCache implements SnapshotCache {
  constructor(private readonly cache: SyncKeyValueStore) {}

  async read(providerId: string): Promise<ProviderUsage | null> {
    const text = this.cache.get(keyOf(providerId));
    if (text === undefined) return null;
    try {
      const parsed = ProviderUsageSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  async write(usage: ProviderUsage): Promise<void> {
    this.cache.set(keyOf(usage.id), JSON.stringify(usage));
  }
}

const keyOf = (providerId: string) => `snapshot:${providerId}`;
