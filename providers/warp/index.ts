import { missingKey, type FetchStrategy, type ProviderCode } from "../kit/index.js";
import { ENV, warpKey } from "./credentials.js";
import { warpSnapshot, type WarpReading } from "./policy.js";

export const warpApi: FetchStrategy<string, WarpReading> = {
  source: "api",
  credentials: warpKey,
  missingCredential: () => missingKey("warp", ENV, "Missing Warp API key."),
  toSnapshot: warpSnapshot,
  // the wire (request, schema) loads with the first fetch: listing providers never loads it
  fetch: async (key, context) => (await import("./wire.js")).readWarp(key, context),
};

export const warp: ProviderCode = {
  strategies: [warpApi],
  simulator: async () => (await import("./simulator.js")).warpUpstream,
};
