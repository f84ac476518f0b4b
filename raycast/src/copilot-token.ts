import { saveProviderToken } from "../../domain/provider-token.js";
import type { ConfigStore } from "../../ports/config-store.js";

/**
 * Save the token of a finished Copilot login as `providers[copilot].apiKey` (spec 2.4), the way
 * `quotabar login copilot` does, in the store Raycast uses: the shared CLI config file when one is
 * set, else encrypted LocalStorage. Returns where it went, for the view to say so.
 */
export async function saveCopilotToken(store: ConfigStore, token: string): Promise<string> {
  await saveProviderToken(store, "copilot", token);
  return store.path();
}
