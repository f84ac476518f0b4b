import { advice, header, notConfigured, parseError, type FetchStrategy, type HttpResponse } from "../kit/index.js";
import { FRESH_COOKIE, PASTE_COOKIE, refused, refusedOn, SET_KEY } from "./errors.js";
import { codingPlanFromPage, looksSignedOut } from "./page.js";
import { minimaxSnapshot, type MiniMaxReading } from "./policy.js";
import { minimaxRemainsReading, remainsJson, type RemainsCaller } from "./remains.js";
import { minimaxWebSessions, type MiniMaxWebSession } from "./session.js";
import { minimaxCodingPlanUrl, minimaxReferer, minimaxWebRemainsUrl } from "./urls.js";

const BROWSER_USER_AGENT =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/143.0.0.0 Safari/537.36";

/**
 * The web route with one session: the coding-plan page first, which may carry the data itself,
 * then the remains API with the session's cookie (and Bearer token, when pasted).
 */
export const minimaxWeb: FetchStrategy<MiniMaxWebSession, MiniMaxReading> = {
  source: "web",
  credentials: minimaxWebSessions,
  toSnapshot: minimaxSnapshot,
  missingCredential: () => notConfigured("MiniMax cookie header not found.", PASTE_COOKIE, ...SET_KEY),
  async fetch(session, context) {
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
      statusRules: refusedOn(FRESH_COOKIE),
    });
    const fromPage = readBody(page, context.now(), caller);
    if (fromPage) return fromPage;

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
    const reading = readBody(remains, context.now(), caller);
    if (reading) return reading;
    throw parseError(
      "Failed to parse MiniMax coding plan: neither the page nor the remains API carried usage.",
      advice("MiniMax may have changed its pages; please report it."),
    );
  },
};

/** JSON is remains data; HTML is a page to scrape, or a sign-in page (refused credentials). */
function readBody(response: HttpResponse, now: Date, caller: RemainsCaller): MiniMaxReading | null {
  if (header(response.headers, "content-type")?.includes("application/json"))
    return minimaxRemainsReading(remainsJson(response.body), caller);
  if (looksSignedOut(response.body)) throw refused(FRESH_COOKIE);
  return codingPlanFromPage(response.body, now, caller);
}
