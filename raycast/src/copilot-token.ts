import type { ConfigStore } from "../../ports/config-store.js";

/**
 * Save the token of a finished Copilot login as `providers[copilot].apiKey` (spec 2.4) in the
 * store Raycast uses: the shared CLI config file when one is set, else encrypted LocalStorage.
 * Returns where it went, for the view to say so.
 */
export async function saveCopilotToken(store: ConfigStore, token: string): Promise<string> {
  await store.update((config) => {
    const entry = config.providers.find((e) => e.id === "copilot");
    if (entry) {
      entry.apiKey = token;
      if (entry.enabled === false) entry.enabled = true;
    } else {
      config.providers.push({ id: "copilot", apiKey: token });
    }
  });
  return store.path();
}
