import { browserLookupAdvice, notConfigured, withFreshCookieRetry, type FetchStrategy, type ProviderCode } from "../kit/index.js";
import { minimaxWebAttempts } from "./browser-session.js";
import { configuredKey, isStandardKey, minimaxApiToken } from "./credentials.js";
import { FRESH_COOKIE, isRefusal, SET_KEY } from "./errors.js";
import { minimaxSnapshot, type MiniMaxReading } from "./policy.js";
import type { MiniMaxAttempt } from "./session.js";

export const minimaxApi: FetchStrategy<string, MiniMaxReading> = {
  source: "api",
  credentials: minimaxApiToken,
  toSnapshot: minimaxSnapshot,
  // A refused token, or no remains endpoint on any path, still leaves the web session to try.
  fallbackOn: (error) => isRefusal(error) || error.status === 404,
  missingCredential: (context) =>
    notConfigured(
      isStandardKey(configuredKey(context))
        ? "MiniMax standard API keys (sk-api-...) cannot read the coding plan, and no cookie header is configured."
        : "MiniMax API token not found. Set apiKey in the config file, MINIMAX_CODING_API_KEY or MINIMAX_API_KEY.",
      ...SET_KEY,
      ...browserLookupAdvice(context),
      ...FRESH_COOKIE,
    ),
  // the wire (requests, schemas) loads with the first fetch: listing providers never loads it
  fetch: async (token, context) => (await import("./wire-api.js")).readMinimaxApi(token, context),
};

/** The web route over its sessions in order (cached, each browser profile's, the manual header). */
export const minimaxWeb: FetchStrategy<MiniMaxAttempt[], MiniMaxReading> = {
  source: "web",
  credentials: minimaxWebAttempts,
  toSnapshot: minimaxSnapshot,
  missingCredential: (context) =>
    notConfigured("MiniMax cookie header not found.", ...browserLookupAdvice(context), ...FRESH_COOKIE, ...SET_KEY),
  fetch: async (attempts, context) => (await import("./wire-web.js")).readMinimaxWeb(attempts, context),
};

/** The API token first, then a web session: the cached one, a browser's (with its Local Storage token), the manual header. */
export const minimax: ProviderCode = {
  // a refused cached session is dropped and the browsers read afresh, once, in the same run
  strategies: [minimaxApi, ...withFreshCookieRetry(minimaxWeb)],
  simulator: async () => (await import("./simulator.js")).minimaxUpstream,
};
