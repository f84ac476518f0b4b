import { notConfigured, type FetchStrategy, type ProviderCode } from "../kit/index.js";
import { kimik2Key, SET_KEY } from "./credentials.js";
import { kimik2Snapshot, type Kimik2Reading } from "./policy.js";

export const kimik2Api: FetchStrategy<string, Kimik2Reading> = {
  source: "api",
  credentials: kimik2Key,
  missingCredential: () => notConfigured("Kimi K2 API key not found", ...SET_KEY),
  toSnapshot: kimik2Snapshot,
  // the wire (request, body search) loads with the first fetch: listing providers never loads it
  fetch: async (key, context) => (await import("./wire.js")).readKimik2(key, context),
};

export const kimik2: ProviderCode = {
  strategies: [kimik2Api],
  simulator: async () => (await import("./simulator.js")).kimik2Upstream,
};
