import type { FetchStrategy, ProviderCode } from "../kit/index.js";
import { adcCredentials, noAdc, type AdcCredential } from "./adc.js";
import { vertexSnapshot, type VertexReading } from "./policy.js";

/** Quota from Cloud Monitoring with the gcloud ADC sign-in, and the month's cost from the Claude Code logs, read alongside. */
export const vertexMonitoring: FetchStrategy<AdcCredential, VertexReading> = {
  source: "oauth",
  credentials: adcCredentials,
  missingCredential: ({ env }) => noAdc(env),
  // the sign-in (its OAuth client and refresh token), not the access tokens the file or a run carries
  identity: ({ clientId, refreshToken }) => [clientId, refreshToken],
  toSnapshot: vertexSnapshot,
  // the wire (token, Cloud Monitoring, log scan) loads with the first fetch: listing providers never loads it
  fetch: async (credential, context) => (await import("./wire.js")).readVertex(credential, context),
};

export const vertexai: ProviderCode = {
  strategies: [vertexMonitoring],
  simulator: async () => (await import("./simulator.js")).vertexUpstream,
};
