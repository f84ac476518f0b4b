import type { FetchStrategy, ProviderModule } from "../kit/index.js";
import { kiroBinary } from "./credentials.js";
import { descriptor } from "./descriptor.js";
import { notInstalled } from "./errors.js";
import { kiroSnapshot, type KiroReading } from "./policy.js";

/**
 * `kiro-cli chat --no-interactive /usage`, after `kiro-cli whoami` as a login check. The credential is
 * the binary's path: found means set up, and no process runs to find it.
 */
export const kiroCli: FetchStrategy<string, KiroReading> = {
  source: "cli",
  credentials: kiroBinary,
  missingCredential: notInstalled,
  toSnapshot: kiroSnapshot,
  // the wire (CLI runs, output parsing) loads with the first fetch: listing providers never loads it
  fetch: async (binary, context) => (await import("./wire.js")).readKiro(binary, context),
};

/** No HTTP upstream: its simulator writes a stand-in kiro-cli into the demo's home instead. */
export const kiro: ProviderModule = {
  descriptor,
  strategies: [kiroCli],
  simulator: async () => (await import("./simulator.js")).kiroUpstream,
};
