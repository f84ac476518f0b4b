import { missingSessionCookie, withFreshCookieRetry, type FetchStrategy, type ProviderModule } from "../kit/index.js";
import { ampCookie, COOKIE_ENV, SIGN_IN_AGAIN } from "./cookies.js";
import { descriptor } from "./descriptor.js";
import { ampSnapshot, type AmpFreeTier } from "./policy.js";

/** The Amp Free figures of ampcode.com/settings, read with the `session` cookie. */
export const ampWeb: FetchStrategy<string, AmpFreeTier> = {
  source: "web",
  credentials: ampCookie,
  missingCredential: (context) =>
    missingSessionCookie(
      context,
      COOKIE_ENV,
      { none: "No Amp session cookie found.", withoutSession: "No Amp session cookie found: the cookie header has no session cookie." },
      ...SIGN_IN_AGAIN,
    ),
  toSnapshot: ampSnapshot,
  // the wire (requests, page reading) loads with the first fetch: listing providers never loads it
  fetch: async (cookie, context) => (await import("./wire.js")).readAmp(cookie, context),
};

export const amp: ProviderModule = {
  descriptor,
  // a refused cached header is dropped and the browsers read afresh, once, in the same run
  strategies: withFreshCookieRetry(ampWeb),
  simulator: async () => (await import("./simulator.js")).ampUpstream,
};
