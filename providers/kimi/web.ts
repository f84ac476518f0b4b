import { localTimeZone, type ProviderHttp } from "../kit/index.js";
import { invalidRequest, KIMI_ORIGIN, rejectedWebToken } from "./errors.js";
import { kimiJwtClaims } from "./token.js";
import { CODING_SCOPE, webUsage, type KimiUsage } from "./usage-body.js";

const USAGES_URL = `${KIMI_ORIGIN}/apiv2/kimi.gateway.billing.v1.BillingService/GetUsages`;
const BROWSER_USER_AGENT =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/143.0.0.0 Safari/537.36";

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
