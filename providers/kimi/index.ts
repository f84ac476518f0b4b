import { withFreshCookieRetry, type FetchContext, type FetchStrategy, type ProviderCode, type QuotabarError } from "../kit/index.js";
import { kimiCliCredentialsFile, kimiCliSession, type KimiCliSession } from "./cli-credentials.js";
import { kimiAuthToken, kimiCodeApiKey, withWebToken, type WithWebToken } from "./credentials.js";
import { missingAny, missingApiKey, missingCliSession, missingWebToken } from "./errors.js";
import { kimiSnapshot, type KimiReading } from "./policy.js";

const isAuto = (context: { sourceMode: string }) => context.sourceMode === "auto";
/** In auto mode a failed route hands over to the next one, except for a bad override or a spent budget. */
const handsOver = (error: QuotabarError, context: FetchContext) =>
  isAuto(context) && error.code !== "not_configured" && error.code !== "timeout";

/** The Kimi Code API with an API key. */
export const kimiApi: FetchStrategy<WithWebToken<string>, KimiReading> = {
  source: "api",
  credentials: withWebToken(kimiCodeApiKey),
  missingCredential: (context) => (isAuto(context) ? missingAny(context) : missingApiKey()),
  fallbackOn: handsOver,
  // the key says whose numbers these are; the kimi-auth token beside it only decorates them
  identity: ({ credential }) => credential,
  toSnapshot: kimiSnapshot,
  // the wire (requests, schemas) loads with the first fetch: listing providers never loads it
  fetch: async (credential, context) => (await import("./wire.js")).readKimiApi(credential, context),
};

/** The Kimi Code API with the Kimi Code CLI's access token. */
export const kimiCli: FetchStrategy<WithWebToken<KimiCliSession>, KimiReading> = {
  source: "cli",
  credentials: withWebToken(kimiCliSession),
  missingCredential: (context) => (isAuto(context) ? missingAny(context) : missingCliSession(kimiCliCredentialsFile(context.env))),
  fallbackOn: handsOver,
  identity: ({ credential }) => credential,
  toSnapshot: kimiSnapshot,
  fetch: async (credential, context) => (await import("./wire.js")).readKimiCli(credential, context),
};

/** GetUsages with the kimi-auth token of the Kimi console. */
export const kimiWeb: FetchStrategy<string, KimiReading> = {
  source: "web",
  credentials: kimiAuthToken,
  missingCredential: (context) => (isAuto(context) ? missingAny(context) : missingWebToken(context)),
  toSnapshot: kimiSnapshot,
  fetch: async (token, context) => (await import("./wire.js")).readKimiWeb(token, context),
};

export const kimi: ProviderCode = {
  // auto: the Kimi Code API key, then the Kimi Code CLI's sign-in, then the console's kimi-auth cookie
  // a refused kimi-auth token from the cache is dropped and the browsers read afresh, once, in the same run
  strategies: [kimiApi, kimiCli, ...withFreshCookieRetry(kimiWeb)],
  simulator: async () => (await import("./simulator.js")).kimiUpstream,
};
