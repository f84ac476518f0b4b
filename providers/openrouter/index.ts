import { missingKey, type FetchStrategy, type ProviderCode } from "../kit/index.js";
import { ENV, openrouterKeys, type OpenrouterCredential } from "./credentials.js";
import { openrouterSnapshot, type OpenrouterReading } from "./policy.js";

export const openrouterApi: FetchStrategy<OpenrouterCredential, OpenrouterReading> = {
  source: "api",
  credentials: openrouterKeys,
  missingCredential: () => missingKey("openrouter", ENV, "OpenRouter API key not configured"),
  toSnapshot: openrouterSnapshot,
  // the wire (requests, schemas) loads with the first fetch: listing providers never loads it
  fetch: async (credential, context) => (await import("./wire.js")).readOpenrouter(credential, context),
};

export const openrouter: ProviderCode = {
  strategies: [openrouterApi],
  simulator: async () => (await import("./simulator.js")).openrouterUpstream,
};
