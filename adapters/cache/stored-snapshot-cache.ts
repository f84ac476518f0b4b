import type { ProviderUsage } from "../../domain/usage-document.js";
import type { SnapshotCache } from "../../ports/snapshot-cache.js";
import type { TextStore } from "../../ports/text-store.js";
import { credentialScope } from "./credential-scope.js";
import { keptUsage } from "./kept-usage.js";

/** What a poller (`quotabar bar`) reads without a credential: the last answer kept for a provider under this origin map. */
export interface LatestUsage {
  usage: ProviderUsage;
  /** When it was fetched: the snapshot's fetchedAt, or when a failed refresh was noted. */
  at: Date;
}

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
    await this.store.write(key(usage.id), JSON.stringify({ scope: this.scope(credential), origins: this.originScope(), usage }));
  }

  async remove(providerId: string): Promise<void> {
    await Promise.all([this.store.remove(key(providerId)), this.store.remove(failureKey(providerId))]);
  }

  /**
   * The newest of the kept snapshot and the noted failure (noteFailure) of a provider, whichever
   * credential fetched it, under this origin map only (a demo's numbers never pass for real ones).
   * Read without zod (keptUsage): a poller's whole run is this read and a render.
   */
  async latest(providerId: string): Promise<LatestUsage | null> {
    const [good, failed] = await Promise.all([this.readLatest(key(providerId)), this.readLatest(failureKey(providerId))]);
    if (good && failed) return failed.at > good.at ? failed : good;
    return good ?? failed;
  }

  /** A refresh that failed (its usage as the document shows it: error, and stale numbers when there were any), so pollers wait --max-age before asking again. */
  async noteFailure(usage: ProviderUsage, at: Date): Promise<void> {
    await this.store.write(failureKey(usage.id), JSON.stringify({ origins: this.originScope(), at: at.toISOString(), usage }));
  }

  private async readLatest(storeKey: string): Promise<LatestUsage | null> {
    try {
      const text = await this.store.read(storeKey);
      if (text === null) return null;
      const entry = JSON.parse(text) as { origins?: unknown; at?: unknown; usage?: unknown };
      const usage = keptUsage(entry.usage);
      if (entry.origins !== this.originScope() || !usage) return null;
      const at = new Date(typeof entry.at === "string" ? entry.at : (usage.fetchedAt ?? NaN));
      return Number.isNaN(at.getTime()) ? null : { usage, at };
    } catch {
      return null;
    }
  }

  private originScope(): string {
    return credentialScope(this.origins, []);
  }

  private scope(credential: readonly string[]): string {
    return credentialScope(this.origins, credential);
  }
}

const key = (providerId: string) => `snapshots/${providerId}`;
const failureKey = (providerId: string) => `snapshots/failed/${providerId}`;
