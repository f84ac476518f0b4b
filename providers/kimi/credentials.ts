import {
  browserCookieHeader,
  browserOrder,
  cleanSecret,
  firstFound,
  fromEnv,
  manualCookieHeader,
  mapped,
  type CredentialSource,
} from "../kit/index.js";
import { API_KEY_ENV, WEB_TOKEN_ENV } from "./errors.js";
import { kimiAuthTokenFromText } from "./token.js";

/** A credential of the Kimi Code API, with the kimi-auth token when one is found too (for the membership call). */
export interface WithWebToken<T> {
  credential: T;
  webToken: string | null;
}

/** Environment variables alone (the kit's manualCookieHeader reads the config first). */
const environment = (names: readonly string[]): CredentialSource<string> => ({ resolve: async (context) => fromEnv(context, names) });

/** Config `apiKey` when what was stored is a kimi-auth token (a JWT, a cookie, a cURL command); else it is a Kimi Code API key. */
const webTokenInApiKey: CredentialSource<string> = {
  resolve: async (context) => {
    const stored = cleanSecret(context.entry.apiKey);
    return stored === null ? null : kimiAuthTokenFromText(stored);
  },
};

/** The kimi-auth token someone put in place: the manual token, a pasted cookie header, then the environment. */
export const pastedKimiAuthToken: CredentialSource<string> = firstFound([
  webTokenInApiKey,
  mapped(manualCookieHeader([]), kimiAuthTokenFromText),
  mapped(environment(["KIMI_MANUAL_COOKIE"]), kimiAuthTokenFromText),
  // the variable is the cookie's value, even one that is not a JWT
  mapped(environment(WEB_TOKEN_ENV), (text) => kimiAuthTokenFromText(text) ?? text),
]);

/** kimi.com keeps the console's session in its kimi-auth cookie alone. */
const KIMI_AUTH_COOKIE = { isSession: (name: string) => name === "kimi-auth", sendOnlySession: true };

/** The kimi-auth cookie of a browser signed in to kimi.com, in the spec's browser order; cached between runs. */
const browserKimiAuthToken = mapped(
  browserCookieHeader({
    hosts: ["www.kimi.com", "kimi.com"],
    browsers: browserOrder(["arc", "chrome", "safari", "edge", "brave", "chromium"]),
    names: ["kimi-auth"],
    session: KIMI_AUTH_COOKIE,
  }),
  kimiAuthTokenFromText,
);

/** The web route's token: what was put in place first, then the automatic import from a browser. */
export const kimiAuthToken: CredentialSource<string> = firstFound([pastedKimiAuthToken, browserKimiAuthToken]);

/** The membership beside the API routes uses a token put in place only: no browser is read for a decoration. */
export const withWebToken = <T>(source: CredentialSource<T>): CredentialSource<WithWebToken<T>> => ({
  async resolve(context) {
    const credential = await source.resolve(context);
    return credential === null ? null : { credential, webToken: await pastedKimiAuthToken.resolve(context) };
  },
});

/** Config `apiKey` unless it holds a kimi-auth token (the web route takes that), then KIMI_CODE_API_KEY. */
export const kimiCodeApiKey: CredentialSource<string> = {
  resolve: async (context) => {
    const stored = cleanSecret(context.entry.apiKey);
    return stored !== null && kimiAuthTokenFromText(stored) === null ? stored : fromEnv(context, API_KEY_ENV);
  },
};
