import type { TextStore } from "../../ports/text-store.js";

const KEY = "bar/selection";

/**
 * Which providers `quotabar bar` shows without -p: the enabled ones, which takes every provider's
 * credential lookup to know (the core, browsers, files). Kept like a snapshot, for --max-age, for
 * this config file and origin map (`scope`).
 */
export class KeptSelection {
  constructor(
    private readonly store: TextStore,
    private readonly scope: string,
    /** Another key for another question (the accounts of the providers -p names), so two bars never evict each other's. */
    private readonly key = KEY,
  ) {}

  /** The kept ids when `fresh` says their time is recent enough; null otherwise. */
  async read(fresh: (at: Date) => boolean): Promise<string[] | null> {
    try {
      const text = await this.store.read(this.key);
      const kept = text === null ? null : (JSON.parse(text) as { scope?: unknown; at?: unknown; ids?: unknown });
      if (!kept || kept.scope !== this.scope || typeof kept.at !== "string") return null;
      const ids = kept.ids;
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) return null;
      const at = new Date(kept.at);
      return !Number.isNaN(at.getTime()) && fresh(at) ? ids : null;
    } catch {
      return null;
    }
  }

  async write(ids: readonly string[], at: Date): Promise<void> {
    await this.store.write(this.key, JSON.stringify({ scope: this.scope, at: at.toISOString(), ids }));
  }
}
