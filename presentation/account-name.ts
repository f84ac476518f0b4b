import { accountRef, keyOfUsage } from "../domain/account.js";

/** How a provider entry is titled for people: "Claude" for the default account, "Claude · work" for a named one. */
export const accountTitle = (usage: { name: string; account?: string | null | undefined }): string =>
  typeof usage.account === "string" ? `${usage.name} · ${usage.account}` : usage.name;

/** How it is named where an id goes (a bar item, `-p`): "claude", "claude:work". */
export const accountId = (usage: { id: string; account?: string | null | undefined }): string => accountRef(keyOfUsage(usage));
