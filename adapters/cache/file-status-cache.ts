import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { ProviderStatusSchema, UsageErrorSchema } from "../../domain/usage-document.js";
import type { StatusCache, StatusCacheEntry } from "../../ports/status-cache.js";
import { writeAtomically } from "../fs/atomic-write.js";

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
 * One JSON file per provider under `<cache dir>/status/`, written atomically. An entry polled
 * through a different origin map (the simulator, a gateway) reads as absent, so a demo never
 * leaves fake incidents behind for the real pages; a damaged file reads as absent too.
 */
export class FileStatusCache implements StatusCache {
  constructor(
    private readonly dir: string,
    /** The URL a feed URL is really fetched from (the origin map applied). */
    private readonly targetOf: (feedUrl: string) => string = (url) => url,
  ) {}

  async read(providerId: string): Promise<StatusCacheEntry | null> {
    try {
      const parsed = EntrySchema.safeParse(JSON.parse(await readFile(this.file(providerId), "utf8")));
      if (!parsed.success || parsed.data.target !== this.targetOf(parsed.data.feedUrl)) return null;
      const { target: _target, ...entry } = parsed.data;
      return entry;
    } catch {
      return null;
    }
  }

  async write(providerId: string, entry: StatusCacheEntry): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeAtomically(this.file(providerId), JSON.stringify({ ...entry, target: this.targetOf(entry.feedUrl) }));
  }

  private file(providerId: string): string {
    return join(this.dir, `${providerId.replace(/[^a-z0-9_-]/gi, "_")}.json`);
  }
}
