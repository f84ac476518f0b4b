import {
  localTimeZone,
  browserCookieHeader,
  browserOrder,
  cleanSecret,
  firstFound,
  fromEnv,
  manualCookieHeader,
  mapped,
  type CredentialSource,
  type ProviderHttp,
} from "../kit/index.js";
import { invalidRequest, KIMI_ORIGIN, rejectedWebToken, WEB_TOKEN_ENV } from "./errors.js";
import { kimiAuthTokenFromText, kimiJwtClaims } from "./token.js";
import { CODING_SCOPE, webUsage, type KimiUsage } from "./usage-body.js";

const USAGES_URL = `${KIMI_ORIGIN}/apiv2/kimi.gateway.billing.v1.BillingService/GetUsages`;
const BROWSER_USER_AGENT =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/143.0.0.0 Safari/537.36";

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

/** The browser's request, header for header. */
export function kimiHeaders(token: string): Record<string, string> {
  const claims = kimiJwtClaims(token);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Authorization: `Bearer ${token}`,
    Cookie: `kimi-auth=${token}`,
    Origin: KIMI_ORIGIN,
    Referer: `${KIMI_ORIGIN}/code/console`,
    Accept: "*/*",
    "Accept-Language": "en-US,en;q=0.9",
    "User-Agent": BROWSER_USER_AGENT,
    "connect-protocol-version": "1",
    "x-language": "en-US",
    "x-msh-platform": "web",
    "r-timezone": localTimeZone(),
  };
  if (claims.deviceId) headers["x-msh-device-id"] = claims.deviceId;
  if (claims.sessionId) headers["x-msh-session-id"] = claims.sessionId;
  if (claims.subject) headers["x-traffic-id"] = claims.subject;
  return headers;
}

/** GetUsages, the call the Kimi console makes. */
export async function readWebUsage(http: ProviderHttp, token: string): Promise<KimiUsage> {
  const response = await http.request({
    url: USAGES_URL,
    method: "POST",
    headers: kimiHeaders(token),
    json: { scope: [CODING_SCOPE] },
    statusRules: { 400: invalidRequest, 401: rejectedWebToken, 403: rejectedWebToken },
  });
  return webUsage(response.body);
}
