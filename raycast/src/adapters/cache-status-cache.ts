import { z } from "zod";
import { ProviderStatusSchema, UsageErrorSchema } from "../../../domain/usage-document.js";
import type { StatusCache, StatusCacheEntry } from "../../../ports/status-cache.js";
import type { SyncKeyValueStore } from "./key-value.js";

const EntrySchema = z.object({
  feedUrl: z.string(),
  /** Where the request really went (after QUOTABAR_ORIGIN_MAP). */
  target: z.string(),
  checkedAt: z.iso.datetime({ offset: true }),
  fetchedAt: z.iso.datetime({ offset: true }).nullable(),
  status: ProviderStatusSchema.nullable(),
  error: UsageErrorSchema.nullable(),
});

/**
 * The last status-page poll per provider in Raycast's `Cache`, so the menu bar (relaunched every
 * few minutes) and the list poll a page at most once per interval between them. Like the CLI's
 * file cache, an entry polled through another origin map reads as absent.
 */
export class CacheStatusCache implements StatusCache {
  constructor(
    private readonly cache: SyncKeyValueStore,
    private readonly targetOf: (feedUrl: string) => string = (url) => url,
  ) {}

  async read(providerId: string): Promise<StatusCacheEntry | null> {
    const text = this.cache.get(keyOf(providerId));
    if (text === undefined) return null;
    try {
      const parsed = EntrySchema.safeParse(JSON.parse(text));
      if (!parsed.success || parsed.data.target !== this.targetOf(parsed.data.feedUrl)) return null;
      const { target: _target, ...entry } = parsed.data;
      return entry;
    } catch {
      return null;
    }
  }

  async write(providerId: string, entry: StatusCacheEntry): Promise<void> {
    this.cache.set(keyOf(providerId), JSON.stringify({ ...entry, target: this.targetOf(entry.feedUrl) }));
  }
}

const keyOf = (providerId: string) => `status:${providerId}`;
