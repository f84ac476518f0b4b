import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ProviderUsageSchema, type ProviderUsage } from "../../domain/usage-document.js";
import type { SnapshotCache } from "../../ports/snapshot-cache.js";
import { writeAtomically } from "../fs/atomic-write.js";

/** One JSON file per provider under the cache directory; a damaged file reads as "no snapshot". */
export class FileSnapshotCache implements SnapshotCache {
  constructor(private readonly dir: string) {}

  async read(providerId: string): Promise<ProviderUsage | null> {
    try {
      const parsed = ProviderUsageSchema.safeParse(JSON.parse(await readFile(this.file(providerId), "utf8")));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  async write(usage: ProviderUsage): Promise<void> {
    await mkdir(join(this.dir, "snapshots"), { recursive: true, mode: 0o700 });
    await writeAtomically(this.file(usage.id), JSON.stringify(usage));
  }

  private file(providerId: string): string {
    return join(this.dir, "snapshots", `${providerId.replace(/[^a-z0-9_-]/gi, "_")}.json`);
  }
}
