import type { ProviderCode } from "../../ports/provider-module.js";
import { chainStrategy } from "./chain.js";
import {
  chromeFirefoxCookies,
  chromeFirefoxWorkosCookies,
  localStorageTokens,
  safariCookies,
  safariWorkosCookies,
} from "./browser-steps.js";
import { cachedHeader, pastedHeader, sessionBearer, sessionCookies, sessionRefreshToken } from "./session-steps.js";

/** A pasted header first, then the nine steps of spec section 5 in order, each tried only when the ones before gave no usage. */
export const factory: ProviderCode = {
  strategies: [
    chainStrategy(pastedHeader),
    chainStrategy(cachedHeader),
    chainStrategy(sessionCookies),
    chainStrategy(sessionBearer),
    chainStrategy(sessionRefreshToken),
    chainStrategy(localStorageTokens),
    chainStrategy(safariCookies),
    chainStrategy(safariWorkosCookies),
    chainStrategy(chromeFirefoxCookies),
    chainStrategy(chromeFirefoxWorkosCookies),
  ],
  simulator: async () => (await import("./simulator.js")).factoryUpstream,
};
