import { chooseBrowsers, missingSessionCookie, withFreshCookieRetry, type FetchStrategy, type ProviderCode } from "../kit/index.js";
import { COOKIE_ENV, cursorCookie, PASTE_COOKIE, SIGN_IN } from "./cookies.js";
import { cursorSnapshot, type CursorReading } from "./policy.js";

/** cursor.com's dashboard API, read with its session cookie (a browser's, a pasted one, or made of the Cursor app's sign-in). */
export const cursorWeb: FetchStrategy<string, CursorReading> = {
  source: "web",
  credentials: cursorCookie,
  missingCredential: (context) =>
    missingSessionCookie(
      context,
      COOKIE_ENV,
      {
        none: "No Cursor session found: no browser has a cursor.com session cookie, and the Cursor app is not signed in here.",
        withoutSession:
          "No Cursor session found: the cookie header has no session cookie (WorkosCursorSessionToken, __Secure-next-auth.session-token, ...).",
      },
      ...SIGN_IN,
      chooseBrowsers("cursor"),
      PASTE_COOKIE,
    ),
  toSnapshot: cursorSnapshot,
  // the wire (requests, body reading) loads with the first fetch: listing providers never loads it
  fetch: async (cookie, context) => (await import("./wire.js")).readCursor(cookie, context),
};

export const cursor: ProviderCode = {
  // a refused cached header is dropped and the browsers (and the app) read afresh, once, in the same run
  strategies: withFreshCookieRetry(cursorWeb),
  simulator: async () => (await import("./simulator.js")).cursorUpstream,
};
