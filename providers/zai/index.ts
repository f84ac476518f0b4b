import { missingKey, type FetchStrategy, type ProviderCode } from "../kit/index.js";
import { ENV, zaiKey } from "./credentials.js";
import { zaiSnapshot, type ZaiReading } from "./policy.js";

export const zaiApi: FetchStrategy<string, ZaiReading> = {
  source: "api",
  credentials: zaiKey,
  missingCredential: () => missingKey("zai", ENV, "z.ai API token not found"),
  toSnapshot: zaiSnapshot,
  // the wire (request, schema) loads with the first fetch: listing providers never loads it
  fetch: async (key, context) => (await import("./wire.js")).readZai(key, context),
};

export const zai: ProviderCode = {
  strategies: [zaiApi],
  simulator: async () => (await import("./simulator.js")).zaiUpstream,
};
