import { chooseBrowsers, missingSessionCookie, withFreshCookieRetry, type FetchStrategy, type ProviderCode } from "../kit/index.js";
import { COOKIE_ENV, ollamaCookie, PASTE_COOKIE, SETTINGS_URL } from "./cookies.js";
import { ollamaSnapshot, type OllamaReading } from "./policy.js";

/** The Cloud Usage section of ollama.com/settings, read with the session cookie. */
export const ollamaWeb: FetchStrategy<string, OllamaReading> = {
  source: "web",
  credentials: ollamaCookie,
  // the spec's "no session cookie found", saying whether a header was pasted without one
  missingCredential: (context) =>
    missingSessionCookie(
      context,
      COOKIE_ENV,
      {
        none: "No Ollama session cookie found.",
        withoutSession:
          "No Ollama session cookie found: the cookie header has no session cookie (session, __Secure-session, next-auth.session-token, ...).",
      },
      { kind: "browser-sign-in", url: SETTINGS_URL },
      chooseBrowsers("ollama"),
      PASTE_COOKIE,
    ),
  toSnapshot: ollamaSnapshot,
  // the wire (requests, page reading) loads with the first fetch: listing providers never loads it
  fetch: async (cookie, context) => (await import("./wire.js")).readOllama(cookie, context),
};

export const ollama: ProviderCode = {
  // a refused cached header is dropped and the browser read afresh, once, in the same run
  strategies: withFreshCookieRetry(ollamaWeb),
  simulator: async () => (await import("./simulator.js")).ollamaUpstream,
};
