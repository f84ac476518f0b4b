import { hostOs, type FetchStrategy, type ProviderCode } from "../kit/index.js";
import { noIdeDetected, quotaFile, unsupported } from "./credentials.js";
import { jetbrainsSnapshot, type JetBrainsReading } from "./policy.js";

/**
 * The quota file of the IDE that used AI Assistant last. The credential is that file's path: found
 * means enabled. The IDE is named from the path, never carried beside it, because every string of
 * a credential is redacted from error messages.
 */
export const jetbrainsLocal: FetchStrategy<string, JetBrainsReading> = {
  source: "local",
  credentials: quotaFile,
  missingCredential: () => (hostOs().platform === "win32" ? unsupported() : noIdeDetected()),
  toSnapshot: jetbrainsSnapshot,
  // the wire (the quota file and its XML parser) loads with the first fetch: listing providers never loads it
  fetch: async (file) => (await import("./wire.js")).readJetbrains(file),
};

export const jetbrains: ProviderCode = {
  strategies: [jetbrainsLocal],
  simulator: async () => (await import("./simulator.js")).jetbrainsUpstream,
};
