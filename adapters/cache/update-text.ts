import type { TextStore } from "../../ports/text-store.js";

/** `store.update` where the store has it, else a read and a write (a store only one process at a time uses). */
export async function updateText(store: TextStore, key: string, change: (current: string | null) => string | null): Promise<void> {
  if (store.update) return store.update(key, change);
  const next = change(await store.read(key));
  if (next !== null) await store.write(key, next);
}
