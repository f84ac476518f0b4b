import type { StatusCache, StatusCacheEntry } from "../../ports/status-cache.js";
import type { TextStore } from "../../ports/text-store.js";

/**
 * The last status-page poll per provider. An entry polled through a different origin map (the
 * simulator, a gateway) reads as absent, so a demo never leaves fake incidents behind for the real
 * pages; a damaged entry reads as absent too.
 */
export class StoredStatusCache implements StatusCache {
  constructor(
    private readonly store: TextStore,
    /** The URL a feed URL is really fetched from (the origin map applied). */
    private readonly targetOf: (feedUrl: string) => string = (url) => url,
  ) {}

  async read(providerId: string): Promise<StatusCacheEntry | null> {
    try {
      const text = await this.store.read(`status/${providerId}`);
      if (text === null) return null;
      const parsed = (await import("./status-entry.js")).StatusEntrySchema.safeParse(JSON.parse(text));
      if (!parsed.success || parsed.data.target !== this.targetOf(parsed.data.feedUrl)) return null;
      const { target: _target, ...entry } = parsed.data;
      return entry;
    } catch {
      return null;
    }
  }

  async remove(providerId: string): Promise<void> {
    await this.store.remove(`status/${providerId}`);
  }

  async write(providerId: string, entry: StatusCacheEntry): Promise<void> {
    await this.store.write(`status/${providerId}`, JSON.stringify({ ...entry, target: this.targetOf(entry.feedUrl) }));
  }
}
