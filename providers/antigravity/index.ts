import { notConfigured, type FetchStrategy, type ProviderCode } from "../kit/index.js";
import { languageServer, SERVICE, START_APP, type LanguageServer } from "./language-server.js";
import { antigravitySnapshot, type AntigravityReading } from "./policy.js";

/** The running app's local language server: the process table (/proc, or ps on macOS) finds it, lsof its ports, Connect calls read the quota. */
export const antigravityLocal: FetchStrategy<LanguageServer, AntigravityReading> = {
  source: "local",
  credentials: languageServer,
  missingCredential: () => notConfigured(`${SERVICE} language server not detected. Launch Antigravity and retry.`, START_APP),
  toSnapshot: antigravitySnapshot,
  // the wire (ports, Connect calls, quota parsing) loads with the first fetch: listing providers never loads it
  fetch: async (server, context) => (await import("./wire.js")).readAntigravity(server, context),
};

/** No simulator: the upstream is a local process found in the process table and with lsof, not an origin the simulator can stand in for. */
export const antigravity: ProviderCode = { strategies: [antigravityLocal] };
