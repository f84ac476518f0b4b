import type { FetchStrategy, ProviderCode } from "../kit/index.js";
import { geminiCredentials, noSignIn, type GeminiCredential } from "./credentials.js";
import { geminiSnapshot, type GeminiReading } from "./policy.js";

/** Gemini Code Assist's quota with the Gemini CLI's own sign-in (read only; an expired token is refreshed in memory). */
export const geminiOAuth: FetchStrategy<GeminiCredential, GeminiReading> = {
  source: "oauth",
  credentials: geminiCredentials,
  missingCredential: noSignIn,
  // the sign-in (its refresh token), not the access tokens the file or a run carries
  identity: ({ refreshToken, accessToken }) => [refreshToken ?? accessToken],
  toSnapshot: geminiSnapshot,
  // the wire (token, Code Assist calls) loads with the first fetch: listing providers never loads it
  fetch: async (credential, context) => (await import("./wire.js")).readGemini(credential, context),
};

export const gemini: ProviderCode = {
  strategies: [geminiOAuth],
  simulator: async () => (await import("./simulator.js")).geminiUpstream,
};
