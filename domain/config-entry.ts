import type { ProviderConfigEntry, QuotabarConfig } from "../ports/config-store.js";
import { accountKey, keyOfEntry, sameAccount, type AccountKey } from "./account.js";

/** An account's config entry (a provider id alone: its default account's), or an empty one. */
export function entryOf(config: Pick<QuotabarConfig, "providers">, key: AccountKey | string): ProviderConfigEntry {
  const wanted = typeof key === "string" ? accountKey(key) : key;
  return (
    config.providers.find((e) => sameAccount(keyOfEntry(e), wanted)) ??
    (wanted.account === null ? { id: wanted.id } : { id: wanted.id, account: wanted.account })
  );
}

/** The named accounts of a provider, in config order (the default account is always there besides them). */
export function namedAccountsOf(config: Pick<QuotabarConfig, "providers">, id: string): AccountKey[] {
  return config.providers
    .filter((e) => e.id === id)
    .map(keyOfEntry)
    .filter((key) => key.account !== null);
}

/** Whether the config has an entry for the provider's default account. */
export const hasDefaultEntry = (config: Pick<QuotabarConfig, "providers">, id: string): boolean =>
  config.providers.some((e) => e.id === id && keyOfEntry(e).account === null);
