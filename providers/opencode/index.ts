import { chooseBrowsers, missingSessionCookie, withFreshCookieRetry, type FetchStrategy, type ProviderCode } from "../kit/index.js";
import { COOKIE_ENV, opencodeCookie } from "./cookies.js";
import { SIGN_IN_AGAIN } from "./errors.js";
import { opencodeSnapshot, type OpenCodeReading } from "./policy.js";

/**
 * opencode.ai's dashboard server functions with the `auth` cookie: the workspace (the config's,
 * the one kept from an earlier run, or listed), then its subscription.
 */
export const opencodeWeb: FetchStrategy<string, OpenCodeReading> = {
  source: "web",
  credentials: opencodeCookie,
  missingCredential: (context) =>
    missingSessionCookie(
      context,
      COOKIE_ENV,
      {
        none: "No OpenCode session cookie found.",
        withoutSession: "OpenCode cookie header is invalid: it has no auth or __Host-auth cookie.",
      },
      ...SIGN_IN_AGAIN,
      chooseBrowsers("opencode"),
    ),
  toSnapshot: opencodeSnapshot,
  // the wire (server functions, answer reading) loads with the first fetch: listing providers never loads it
  fetch: async (cookie, context) => (await import("./wire.js")).readOpencode(cookie, context),
};

export const opencode: ProviderCode = {
  // an invalid session from the cache is dropped and the browser read afresh, once, in the same run
  strategies: withFreshCookieRetry(opencodeWeb),
  simulator: async () => (await import("./simulator.js")).opencodeUpstream,
};
