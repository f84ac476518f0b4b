import type { ConfigStore, ProviderConfigEntry } from "../ports/config-store.js";
import { keyOfEntry, sameAccount, type AccountKey } from "./account.js";

const entryFor = (providers: readonly ProviderConfigEntry[], key: AccountKey) => providers.find((e) => sameAccount(keyOfEntry(e), key));

/**
 * Store a token as the account's `apiKey` (`providers[id]`, or the entry naming that `account`) and
 * enable it (spec 2.4: the Copilot OAuth token lives there). The store writes atomically at mode
 * 0600 and keeps every other field; a named account without an entry gets one.
 */
export async function saveProviderToken(store: ConfigStore, key: AccountKey, token: string): Promise<void> {
  await store.update((config) => {
    let entry = entryFor(config.providers, key);
    if (!entry) config.providers.push((entry = key.account === null ? { id: key.id } : { id: key.id, account: key.account }));
    entry.apiKey = token;
    entry.enabled = true;
  });
}

/** Remove the account's `apiKey`, leaving the rest of the entry and file alone. False when none was stored. */
export async function removeProviderToken(store: ConfigStore, key: AccountKey): Promise<boolean> {
  const current = await store.load();
  if (entryFor(current.providers, key)?.apiKey === undefined) return false;
  let removed = false;
  await store.update((config) => {
    const entry = entryFor(config.providers, key);
    if (entry && entry.apiKey !== undefined) {
      delete entry.apiKey;
      removed = true;
    }
  });
  return removed;
}
