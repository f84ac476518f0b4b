/**
 * The provider kit: everything a provider's wire needs, in one import. A wire imports this, domain/,
 * ports/ and zod, nothing else (the architecture test holds it to that). What builds a zod schema
 * (schema.ts) or parses pages (html.ts, xml.ts) is imported from its own file, by the wire code
 * loaded on a fetch: `quotabar providers` loads this index, and it must not load zod.
 */
export { QuotabarError, parseError, notConfigured } from "../../domain/errors.js";
export { advice, type Remedy } from "../../domain/remedy.js";
export { statusError } from "../../domain/http-status-errors.js";
export { header } from "../../domain/headers.js";
export * from "../../domain/coerce.js";
export { checked, checkedCount, decodeJson, decodeValue, fieldError, parseJson, tryJson } from "../../domain/decode-body.js";
export { snakeKeys } from "./case.js";
export { cookiePairs, cookieValue, normalizeCookieHeader } from "./cookie-header.js";
export { apiKey, cleanSecret, firstFound, fromEnv, manualCookieHeader, mapped, missingKey } from "./credentials.js";
export { absolutePath, dataHome, homeOf, joinPath, readTextIfPresent } from "./local-file.js";
export { findObject, firstAt, isObject, MAX_DEPTH, valueAt, type JsonObject } from "./search.js";
export { overrideUrl } from "./url-override.js";
export type { FetchStrategy } from "../../ports/fetch-strategy.js";
export type { CredentialSource } from "../../ports/credential-source.js";
export type { CredentialContext, FetchContext } from "../../ports/fetch-context.js";
export type { HttpResponse, ProviderHttp, StatusRules } from "../../ports/http-client.js";
export type { ProviderCode, ProviderModule } from "../../ports/provider-module.js";
export type { SimReply, SimRequest, SimulatedUpstream } from "../../ports/simulated-upstream.js";
export { hostOs } from "./platform.js";
export { scopedHttp } from "../../domain/scoped-http.js";
export { nestsDeeperThan, parseBoundedJson } from "./bounded-json.js";
export { configHome, modifiedAt, subdirectories } from "./local-dir.js";
export { hostDevice } from "./host-device.js";
export { trimTrailingSlashes } from "../../domain/url-text.js";
export { terminalText } from "./terminal-text.js";
export { localTimeZone, zoneOffsetMinutes } from "./time-zone.js";
export { compareText } from "../../domain/order.js";
export {
  listeningPorts,
  ownProcesses,
  parseListeningPorts,
  parseProcessList,
  runningProcesses,
  type RunningProcess,
} from "./process-probe.js";
export { jsLiterals } from "./js-literal.js";
export { sessionCookieHeader, sessionRefusal, withSessionCookie, type SessionCookieRule } from "./session-cookie.js";
export { BROWSER_USER_AGENT, signedInPage } from "./browser-headers.js";
export { cookieHeaderOf } from "./cookie-header.js";
export {
  browserCookieHeader,
  browsersOf,
  COOKIE_CACHE_SERVICE,
  cookieCacheAccount,
  cookieSourceOf,
  forgetCookieHeader,
  refusesCookie,
  withFreshCookieRetry,
  type BrowserCookieOptions,
} from "./browser-cookies.js";
export {
  filesUnder,
  MAX_LINE_BYTES,
  readTail,
  scanLines,
  type FileTail,
  type FoundFile,
  type LineScan,
  type LineScanOptions,
} from "./line-files.js";
export { providerCache } from "./cache-file.js";
export { browserSession, cachedCookieHeader, storeCookieHeader, withSetCookies } from "./cookie-session.js";
export { appFile, MAX_APP_FILE_BYTES, type AppFile } from "./app-file.js";
export { browserCookieCandidates } from "./cookie-candidates.js";
export {
  browserCookieHeaders,
  browserLookupAdvice,
  explainChosen,
  keepCookieHeader,
  missingSessionCookie,
  readCachedCookie,
  type BrowserCookieHeader,
  type CachedCookie,
} from "./browser-cookies.js";
export { browserOrder, DEFAULT_BROWSER_ORDER } from "./browser-order.js";
export { chooseBrowsers, sessionCookie } from "./session-cookie-source.js";
export { appStateValues } from "./app-state.js";
export { jwtClaims } from "./jwt.js";
