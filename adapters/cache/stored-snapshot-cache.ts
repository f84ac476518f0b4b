import type { ProviderUsage } from "../../domain/usage-document.js";
import type { SnapshotCache } from "../../ports/snapshot-cache.js";
import type { TextStore } from "../../ports/text-store.js";
import { credentialScope } from "./credential-scope.js";

/**
 * One snapshot per provider, stamped with a hash of the credential and the origin map it was
 * fetched with (never the credential itself). A different key, or the simulator's origin map,
 * reads as "no snapshot"; so does a damaged entry. Snapshots hold no secret.
 */
export class StoredSnapshotCache implements SnapshotCache {
  constructor(
    private readonly store: TextStore,
    /** What the requests went to (QUOTABAR_ORIGIN_MAP), so a demo's numbers never pass for real ones. */
    private readonly origins = "",
  ) {}

  async read(providerId: string, credential: readonly string[]): Promise<ProviderUsage | null> {
    try {
      const text = await this.store.read(key(providerId));
      if (text === null) return null;
      const entry = (await import("./snapshot-entry.js")).SnapshotEntrySchema.safeParse(JSON.parse(text));
      return entry.success && entry.data.scope === this.scope(credential) ? entry.data.usage : null;
    } catch {
      return null;
    }
  }

  async write(usage: ProviderUsage, credential: readonly string[]): Promise<void> {
    await this.store.write(key(usage.id), JSON.stringify({ scope: this.scope(credential), usage }));
  }

  async remove(providerId: string): Promise<void> {
    await this.store.remove(key(providerId));
  }

  private scope(credential: readonly string[]): string {
    return credentialScope(this.origins, credential);
  }
}

const key = (providerId: string) => `snapshots/${providerId}`;
