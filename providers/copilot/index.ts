import { notConfigured, type FetchStrategy, type ProviderCode } from "../kit/index.js";
import { copilotToken, personalToken, signIn, type CopilotCredential } from "./credentials.js";
import { copilotSnapshot, type CopilotReading } from "./policy.js";

export const copilotApi: FetchStrategy<CopilotCredential, CopilotReading> = {
  source: "oauth",
  credentials: copilotToken,
  missingCredential: () => notConfigured("GitHub Copilot is not logged in (no token found)", signIn, ...personalToken),
  toSnapshot: copilotSnapshot,
  // the wire (request, schema) loads with the first fetch: listing providers never loads it
  fetch: async (credential, context) => (await import("./wire.js")).readCopilot(credential, context),
};

export const copilot: ProviderCode = {
  strategies: [copilotApi],
  simulator: async () => (await import("./simulator.js")).copilotUpstream,
  signIn: async () => (await import("./device-flow.js")).copilotDeviceFlow,
};
