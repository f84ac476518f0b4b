import {
  missingSessionCookie,
  withFreshCookieRetry,
  type FetchContext,
  type FetchStrategy,
  type ProviderCode,
  type QuotabarError,
} from "../kit/index.js";
import { AMP_LOGIN, ampCliKey, missingCliKey } from "./cli-key.js";
import { ampCookie, COOKIE_ENV, SIGN_IN_AGAIN } from "./cookies.js";
import { ampSnapshot, type AmpFreeTier } from "./policy.js";
import { ampBalanceSnapshot, type AmpBalance } from "./policy-balance.js";

const isAuto = (context: { sourceMode: string }) => context.sourceMode === "auto";

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
      ...(isAuto(context) ? [AMP_LOGIN] : []),
    ),
  toSnapshot: ampSnapshot,
  // the wire (requests, page reading) loads with the first fetch: listing providers never loads it
  fetch: async (cookie, context) => (await import("./wire.js")).readAmp(cookie, context),
};

/**
 * The balance the Amp CLI shows, asked with the API key `amp login` keeps: no browser needed. In
 * auto mode a refused key or an unreadable answer hands over to the settings page (a spent budget
 * does not: nothing would be left for it).
 */
export const ampCli: FetchStrategy<string, AmpBalance> = {
  source: "cli",
  credentials: ampCliKey,
  // auto mode found nothing at all: the cookie route's message, which then also names amp login
  missingCredential: (context) => (isAuto(context) ? ampWeb.missingCredential(context) : missingCliKey(context.env)),
  fallbackOn: (error: QuotabarError, context: FetchContext) => isAuto(context) && error.code !== "timeout",
  toSnapshot: ampBalanceSnapshot,
  fetch: async (key, context) => (await import("./wire-balance.js")).readAmpBalance(key, context),
};

export const amp: ProviderCode = {
  // auto: the Amp CLI's key first, then the settings page with the session cookie; a refused cached
  // header is dropped and the browsers read afresh, once, in the same run
  strategies: [ampCli, ...withFreshCookieRetry(ampWeb)],
  simulator: async () => (await import("./simulator.js")).ampUpstream,
};
