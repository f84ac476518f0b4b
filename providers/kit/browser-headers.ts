import type { ProviderHttp } from "../../ports/http-client.js";
import type { SessionRefusal } from "./session-cookie.js";

/** Requests that stand in for a signed-in browser: web dashboards answer them as they answer Chrome. */

export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/143.0.0.0 Safari/537.36";

/** The headers of Chrome opening `url` with the session's cookies (the page itself as referer). */
function pageRequestHeaders(url: string, cookieHeader: string): Record<string, string> {
  return {
    Cookie: cookieHeader,
    accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "user-agent": BROWSER_USER_AGENT,
    "accept-language": "en-US,en;q=0.9",
    origin: new URL(url).origin,
    referer: url,
  };
}

/**
 * The page at `url` as a signed-in browser gets it. A 401 / 403, or redirects that end on the
 * service's sign-in page (`isSignIn` of the final URL), are the refusal of the session.
 */
export async function signedInPage(
  http: ProviderHttp,
  url: string,
  cookieHeader: string,
  refusal: SessionRefusal,
  isSignIn: (finalUrl: URL) => boolean,
): Promise<string> {
  const response = await http.request({ url, headers: pageRequestHeaders(url, cookieHeader), statusRules: refusal.statusRules });
  if (isSignIn(new URL(response.url))) throw refusal.error();
  return response.body;
}
