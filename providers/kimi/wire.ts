import {
  advice,
  apiKey,
  decodeJson,
  firstFound,
  fromEnv,
  fromIso,
  manualCookieHeader,
  mapped,
  notConfigured,
  QuotabarError,
  zNumber,
  type CredentialSource,
  type FetchStrategy,
  type HttpResponse,
  type Remedy,
} from "../kit/index.js";
import { z } from "zod";
import { kimiSnapshot, kimiTierByName, type KimiQuota, type KimiReading, type KimiTier } from "./policy.js";
import { kimiAuthTokenFromText, kimiJwtClaims } from "./token.js";

const SERVICE = "Kimi";
const KIMI_ORIGIN = "https://www.kimi.com";
const USAGES_URL = `${KIMI_ORIGIN}/apiv2/kimi.gateway.billing.v1.BillingService/GetUsages`;
const CODING_SCOPE = "FEATURE_CODING";
const BROWSER_USER_AGENT =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/143.0.0.0 Safari/537.36";
const TOKEN_ENV = ["KIMI_AUTH_TOKEN", "kimi_auth_token"];
const SET_UP_TOKEN: Remedy[] = [
  { kind: "set-cookie", provider: "kimi", env: ["KIMI_AUTH_TOKEN"], from: KIMI_ORIGIN },
  { kind: "set-key", provider: "kimi", env: [] },
];

const Detail = z.object({
  limit: zNumber.nullish(),
  used: zNumber.nullish(),
  remaining: zNumber.nullish(),
  resetTime: z.string().nullish(),
  resetAt: z.string().nullish(),
  reset_time: z.string().nullish(),
  reset_at: z.string().nullish(),
});
const Response = z.object({
  usages: z.array(
    z.object({
      scope: z.string(),
      detail: Detail,
      limits: z.array(z.object({ detail: Detail })).nullish(),
    }),
  ),
});

/** Environment variables alone (the kit's apiKey and manualCookieHeader read the config first). */
const environment = (names: readonly string[]): CredentialSource<string> => ({ resolve: async (context) => fromEnv(context, names) });
/** A pasted token may also be the bare value of the cookie, even one that is not a JWT. */
const tokenOrLiteral = (text: string) => kimiAuthTokenFromText(text) ?? text;

/**
 * Where the kimi-auth token comes from, in order: the manual token, a pasted cookie header, then
 * the environment. A browser cookie importer goes at the head of this list.
 */
const kimiCredentials = firstFound([
  mapped(apiKey([]), tokenOrLiteral),
  mapped(manualCookieHeader([]), kimiAuthTokenFromText),
  mapped(environment(["KIMI_MANUAL_COOKIE"]), kimiAuthTokenFromText),
  mapped(environment(TOKEN_ENV), tokenOrLiteral),
]);

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
    "r-timezone": Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
  if (claims.deviceId) headers["x-msh-device-id"] = claims.deviceId;
  if (claims.sessionId) headers["x-msh-session-id"] = claims.sessionId;
  if (claims.subject) headers["x-traffic-id"] = claims.subject;
  return headers;
}

const rejectedToken = (response: HttpResponse) =>
  new QuotabarError(
    response.status === 403 ? "forbidden" : "unauthorized",
    "Kimi auth token is invalid or expired. Please refresh your token.",
    {
      status: response.status,
      remedies: SET_UP_TOKEN,
    },
  );

const invalidRequest = () =>
  new QuotabarError("upstream", "Kimi API error: HTTP 400 (invalid request)", {
    status: 400,
    remedies: [advice("Kimi may have changed its billing API; please report it.")],
  });

export const kimiWeb: FetchStrategy<string, KimiReading> = {
  source: "web",
  credentials: kimiCredentials,
  missingCredential: () => notConfigured("Kimi auth token is missing. Please add your JWT token from the Kimi console.", ...SET_UP_TOKEN),
  toSnapshot: kimiSnapshot,
  async fetch(token, { http, entry }) {
    const response = await http.request({
      url: USAGES_URL,
      method: "POST",
      headers: kimiHeaders(token),
      json: { scope: [CODING_SCOPE] },
      statusRules: { 400: invalidRequest, 401: rejectedToken, 403: rejectedToken },
    });
    return kimiReading(decodeJson(response.body, Response, SERVICE), kimiTierByName(entry.tier));
  },
};

function kimiReading(response: z.output<typeof Response>, declaredTier: KimiTier | null): KimiReading {
  const coding = response.usages.find((u) => u.scope === CODING_SCOPE);
  if (!coding) {
    throw new QuotabarError("parse", `Failed to parse Kimi usage data: ${CODING_SCOPE} scope not found in response`, {
      remedies: [advice("The account may have no Kimi For Coding membership.")],
    });
  }
  const rate = coding.limits?.[0]?.detail;
  return { weekly: quota(coding.detail), rateLimit: rate ? quota(rate) : null, declaredTier };
}

function quota(detail: z.output<typeof Detail>): KimiQuota {
  return {
    limit: detail.limit ?? null,
    used: detail.used ?? null,
    remaining: detail.remaining ?? null,
    resetsAt: fromIso(detail.resetTime ?? detail.resetAt ?? detail.reset_time ?? detail.reset_at),
  };
}
