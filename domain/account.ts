import type { ProviderConfigEntry } from "../ports/config-store.js";

/**
 * Whose numbers these are: a provider and one of its accounts (null: the default account, an entry
 * without `account`). Everything kept between runs (snapshots, history, events told, minted tokens,
 * cookie headers) belongs to this pair, never to the provider alone.
 */
export interface AccountKey {
  readonly id: string;
  readonly account: string | null;
}

/** A label the config accepts: letters, digits, `-`, `_`, `.`; 1 to 32 of them (so it is safe in a file name, a header, a label). */
export const ACCOUNT_LABEL = /^[A-Za-z0-9._-]{1,32}$/;
export const ACCOUNT_LABEL_RULE = "a label of 1 to 32 letters, digits, -, _ or .";

export const isAccountLabel = (value: unknown): value is string => typeof value === "string" && ACCOUNT_LABEL.test(value);

export const accountKey = (id: string, account: string | null = null): AccountKey => ({ id, account });

/** The entry's account (a label that is not allowed never reaches here: the config is refused at load). */
export const keyOfEntry = (entry: ProviderConfigEntry): AccountKey =>
  accountKey(entry.id, isAccountLabel(entry.account) ? entry.account : null);

/** The account a usage entry is for; a document from before accounts is the default account's. */
export const keyOfUsage = (usage: { id: string; account?: string | null | undefined }): AccountKey =>
  accountKey(usage.id, isAccountLabel(usage.account) ? usage.account : null);

export const sameAccount = (a: AccountKey, b: AccountKey): boolean => a.id === b.id && a.account === b.account;

/** How people name it (`-p claude:work`, `bar` items): the id alone for the default account. */
export const accountRef = (key: AccountKey): string => (key.account === null ? key.id : `${key.id}:${key.account}`);

/** `claude` or `claude:work`, as given (not checked against the registry). */
export function parseAccountRef(text: string): AccountKey {
  const at = text.indexOf(":");
  return at < 0 ? accountKey(text) : accountKey(text.slice(0, at), text.slice(at + 1));
}

/**
 * The name of what is kept for an account (a cache file, a secret store account): the id alone for
 * the default account, so what was kept before accounts existed stays where it is; `id@label`
 * otherwise, the label spelt in lower-case letters, digits, `-` and `_` only, one way each: a file
 * name on a case-insensitive disk (or one whose store maps `.` and `@` to `_`) is still one account's.
 */
export const storageName = (key: AccountKey): string => (key.account === null ? key.id : `${key.id}@${fileSafe(key.account)}`);

/** `_` then a letter: that letter in upper case; `_` then two hex digits: that character (`.` and `_`). */
const fileSafe = (label: string): string =>
  label.replace(/[A-Z._]/g, (c) => (c === "." || c === "_" ? `_${c.charCodeAt(0).toString(16)}` : `_${c.toLowerCase()}`));
