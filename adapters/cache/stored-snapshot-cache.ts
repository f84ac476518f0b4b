import { ProviderUsageSchema, type ProviderUsage } from "../../domain/usage-document.js";
import type { SnapshotCache } from "../../ports/snapshot-cache.js";
import type { TextStore } from "../../ports/text-store.js";

/** The last good snapshot per provider; a damaged entry reads as "no snapshot". Snapshots hold no secret. */
export class StoredSnapshotCache implements SnapshotCache {
  constructor(private readonly store: TextStore) {}

  async read(providerId: string): Promise<ProviderUsage | null> {
    try {
      const parsed = ProviderUsageSchema.safeParse(JSON.parse((await this.store.read(`snapshots/${providerId}`)) ?? ""));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  async write(usage: ProviderUsage): Promise<void> {
    await this.store.write(`snapshots/${usage.id}`, JSON.stringify(usage));
  }
}
