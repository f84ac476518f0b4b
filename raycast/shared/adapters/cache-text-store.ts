import type { TextStore } from "../../../ports/text-store.js";
import type { SyncKeyValueStore } from "./key-value.js";

/** Raycast's `Cache` as a TextStore: snapshots and status polls shared by the menu bar and the list. */
export class CacheTextStore implements TextStore {
  constructor(private readonly cache: SyncKeyValueStore) {}

  async read(key: string): Promise<string | null> {
    return this.cache.get(key) ?? null;
  }

  async write(key: string, text: string): Promise<void> {
    this.cache.set(key, text);
  }

  async remove(key: string): Promise<void> {
    this.cache.remove(key);
  }

  /** Read and write with no await between: one step for every command of the extension's process. */
  async update(key: string, change: (current: string | null) => string | null): Promise<void> {
    const next = change(this.cache.get(key) ?? null);
    if (next !== null) this.cache.set(key, next);
  }
}
