import { keyOfUsage, type AccountKey } from "../../domain/account.js";
import type { ProviderUsage } from "../../domain/usage-document.js";
import type { TextStore } from "../../ports/text-store.js";
import { checkedUsage } from "../../domain/usage-check.js";
import { failureKey, originKey, snapshotKey } from "./snapshot-keys.js";

/** The last answer kept for a provider, and when it came. */
export interface LatestUsage {
  usage: ProviderUsage;
  /** When it was fetched: the snapshot's fetchedAt, or when a failed refresh was noted. */
  at: Date;
}

/**
 * What a poller (`quotabar bar`) reads: the newest of a provider's kept snapshot (StoredSnapshotCache
 * writes it after every good fetch) and its last noted failure, whichever credential fetched it,
 * under this origin map only (a demo's numbers never pass for real ones). Read without zod
 * (checkedUsage) or node:crypto: a poll's whole run is these reads and a render.
 */
export class LatestSnapshots {
  private readonly origins: string;

  constructor(
    private readonly store: TextStore,
    /** QUOTABAR_ORIGIN_MAP */
    origins = "",
  ) {
    this.origins = originKey(origins);
  }

  async latest(key: AccountKey): Promise<LatestUsage | null> {
    const [good, failed] = await Promise.all([this.read(snapshotKey(key)), this.read(failureKey(key))]);
    if (good && failed) return failed.at > good.at ? failed : good;
    return good ?? failed;
  }

  /** A refresh that failed (its usage as the document shows it: the error, stale numbers when there were any), so pollers wait --max-age before asking again. */
  async noteFailure(usage: ProviderUsage, at: Date): Promise<void> {
    await this.store.write(failureKey(keyOfUsage(usage)), JSON.stringify({ origins: this.origins, at: at.toISOString(), usage }));
  }

  private async read(key: string): Promise<LatestUsage | null> {
    try {
      const text = await this.store.read(key);
      if (text === null) return null;
      const entry = JSON.parse(text) as { origins?: unknown; at?: unknown; usage?: unknown };
      const usage = checkedUsage(entry.usage);
      if (entry.origins !== this.origins || !usage) return null;
      const at = new Date(typeof entry.at === "string" ? entry.at : (usage.fetchedAt ?? NaN));
      return Number.isNaN(at.getTime()) ? null : { usage, at };
    } catch {
      return null;
    }
  }
}
