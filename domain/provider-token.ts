import type { ConfigStore } from "../ports/config-store.js";

/**
 * Store a token as `providers[id].apiKey` and enable the provider (spec 2.4: the Copilot OAuth
 * token lives there). The store writes atomically at mode 0600 and keeps every other field.
 */
export async function saveProviderToken(store: ConfigStore, id: string, token: string): Promise<void> {
  await store.update((config) => {
    let entry = config.providers.find((e) => e.id === id);
    if (!entry) config.providers.push((entry = { id }));
    entry.apiKey = token;
    entry.enabled = true;
  });
}

/** Remove `providers[id].apiKey`, leaving the rest of the entry and file alone. False when none was stored. */
export async function removeProviderToken(store: ConfigStore, id: string): Promise<boolean> {
  const current = await store.load();
  if (current.providers.find((e) => e.id === id)?.apiKey === undefined) return false;
  let removed = false;
  await store.update((config) => {
    const entry = config.providers.find((e) => e.id === id);
    if (entry && entry.apiKey !== undefined) {
      delete entry.apiKey;
      removed = true;
    }
  });
  return removed;
}
