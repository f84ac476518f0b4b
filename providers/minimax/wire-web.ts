import {
  advice,
  forgetCookieHeader,
  header,
  keepCookieHeader,
  parseError,
  QuotabarError,
  type FetchContext,
  type HttpResponse,
} from "../kit/index.js";
import { FRESH_COOKIE, isRefusal, refused, refusedOn } from "./errors.js";
import type { CodingPlanPage } from "./page.js";
import type { MiniMaxReading } from "./policy.js";
import { minimaxRemainsReading, remainsJson, type RemainsCaller } from "./remains.js";
import type { MiniMaxAttempt, MiniMaxWebSession } from "./session.js";
import { minimaxCodingPlanUrl, minimaxReferer, minimaxWebRemainsUrl } from "./urls.js";

const BROWSER_USER_AGENT =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/143.0.0.0 Safari/537.36";

/**
 * The web route with one session: the coding-plan page first, which may carry the usage itself,
 * then the remains API with the session's cookie (and Bearer token, when there is one). The remains
 * API has the last word: whatever the page showed (signed in or not), a cookie-only session it
 * refuses with status 1004 is told that a Bearer token is needed.
 */
async function readWithSession(session: MiniMaxWebSession, context: FetchContext): Promise<MiniMaxReading> {
  const caller: RemainsCaller = session.bearer ? "web-bearer" : "web-cookie";
  const headers: Record<string, string> = {
    Cookie: session.cookieHeader,
    "user-agent": BROWSER_USER_AGENT,
    "accept-language": "en-US,en;q=0.9",
    referer: minimaxReferer(context),
    ...(session.bearer ? { Authorization: `Bearer ${session.bearer}` } : {}),
  };
  const pageUrl = minimaxCodingPlanUrl(context);
  const page = await context.http.request({
    url: pageUrl,
    headers: { ...headers, accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", origin: new URL(pageUrl).origin },
    statusRules: { 401: "pass", 403: "pass" },
  });
  const seen = await pageFindings(page, context.now(), caller);
  if (seen.reading) return seen.reading;

  const remainsUrl = minimaxWebRemainsUrl(context, session.groupId);
  const remains = await context.http.request({
    url: remainsUrl,
    headers: {
      ...headers,
      accept: "application/json, text/plain, */*",
      "x-requested-with": "XMLHttpRequest",
      origin: new URL(remainsUrl).origin,
    },
    statusRules: refusedOn(FRESH_COOKIE),
  });
  if (isJson(remains)) return minimaxRemainsReading(remainsJson(remains.body), caller);
  const answered = (await import("./page.js")).readCodingPlanPage(remains.body, context.now(), caller);
  if (answered.reading) return answered.reading;
  if (answered.signedOut || seen.signedOut) throw refused(FRESH_COOKIE);
  throw (
    seen.problem ??
    parseError(
      "Failed to parse MiniMax coding plan: neither the page nor the remains API carried usage.",
      advice("MiniMax may have changed its pages; please report it."),
    )
  );
}

/** A refused session, or an answer without usage, leaves the next session to try; anything else (network, time, 5xx) ends the route. */
const triesNext = (error: unknown) => error instanceof QuotabarError && (isRefusal(error) || error.code === "parse");

/**
 * The web route over its sessions in order (cached, each browser profile's, the manual header):
 * the first that reads usage wins, and a browser's is kept in the cache with its Bearer token and
 * group id; a refused cached one is dropped. When none works, the last one's error stands.
 */
export async function readMinimaxWeb(attempts: MiniMaxAttempt[], context: FetchContext): Promise<MiniMaxReading> {
  let last: unknown = null;
  for (const { session, cached, profile } of attempts) {
    try {
      const reading = await readWithSession(session, context);
      if (profile) await keepCookieHeader(context, browserOf(profile, session), extraOf(session));
      return reading;
    } catch (error) {
      if (!triesNext(error)) throw error;
      if (cached) await forgetCookieHeader(context);
      last = error;
    }
  }
  throw last;
}

/** "chrome/Default" back into the browser and profile the header came from. */
function browserOf(profile: string, session: MiniMaxWebSession) {
  const slash = profile.indexOf("/");
  return { browser: profile.slice(0, slash), profile: profile.slice(slash + 1), header: session.cookieHeader };
}

/** What the cache keeps beside the header: the Bearer token and group id that worked. */
function extraOf(session: MiniMaxWebSession): Record<string, string> {
  return {
    ...(session.bearer ? { bearer: session.bearer } : {}),
    ...(session.groupId ? { groupId: session.groupId } : {}),
  };
}

const isJson = (response: HttpResponse) => header(response.headers, "content-type")?.includes("application/json") ?? false;

/** The page's usage, or what it showed instead: a sign-in page (401/403 included) or a body that could not be read. */
async function pageFindings(
  response: HttpResponse,
  now: Date,
  caller: RemainsCaller,
): Promise<CodingPlanPage & { problem?: QuotabarError }> {
  if (response.status === 401 || response.status === 403) return { reading: null, signedOut: true };
  try {
    if (isJson(response)) return { reading: minimaxRemainsReading(remainsJson(response.body), caller), signedOut: false };
    // the page parser (htmlparser2) loads only when a page is to be read
    return (await import("./page.js")).readCodingPlanPage(response.body, now, caller);
  } catch (error) {
    // a page without usage (or too large, or not what it claims) leaves the answer to the remains API
    if (error instanceof QuotabarError && (error.code === "parse" || error.code === "upstream")) {
      return { reading: null, signedOut: false, problem: error };
    }
    throw error;
  }
}
