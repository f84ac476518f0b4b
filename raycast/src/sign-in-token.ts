import { accountKey } from "../../domain/account.js";
import { saveProviderToken } from "../../domain/provider-token.js";
import type { ConfigStore } from "../../ports/config-store.js";

/**
 * Save the token of a finished sign-in as `providers[id].apiKey`, the way `quotabar login <id>`
 * does, in the store Raycast uses: the shared CLI config file when one is set, else encrypted
 * LocalStorage. Returns where it went, for the view to say so.
 */
export async function saveSignInToken(store: ConfigStore, provider: string, token: string): Promise<string> {
  // Raycast signs in the provider's default account (its preferences are that account's)
  await saveProviderToken(store, accountKey(provider), token);
  return store.path();
}
