import { DEFAULT_BROWSER_ORDER, firstFound, sessionCookie } from "../kit/index.js";
import type { CredentialSource, Remedy, SessionCookieRule } from "../kit/index.js";
import { cursorAppCookie } from "./app-sign-in.js";

export const COOKIE_ENV = ["CURSOR_COOKIE"];
export const DASHBOARD_URL = "https://cursor.com/dashboard?tab=usage";
export const PASTE_COOKIE: Remedy = { kind: "set-cookie", provider: "cursor", env: COOKIE_ENV, from: "cursor.com/dashboard" };
export const SIGN_IN: Remedy[] = [
  { kind: "browser-sign-in", url: DASHBOARD_URL },
  { kind: "advice", text: "Or open the Cursor app and sign in there: quotabar reads its sign-in." },
];

/** The session cookies cursor.com has used: WorkOS's (the dashboard's today), NextAuth's and Auth.js's (older). */
export const SESSION_NAMES = [
  "WorkosCursorSessionToken",
  "__Secure-next-auth.session-token",
  "next-auth.session-token",
  "wos-session",
  "__Secure-wos-session",
  "authjs.session-token",
  "__Secure-authjs.session-token",
] as const;

/** Every cookie of the profile goes along, as the browser would send it. */
export const CURSOR_SESSION: SessionCookieRule = {
  isSession: (name) => (SESSION_NAMES as readonly string[]).includes(name),
  sendOnlySession: false,
};

/** Cursor's sites: the dashboard's, and the sign-in's of cursor.sh where some sessions live. */
const HOSTS = ["cursor.com", "www.cursor.com", "cursor.sh", "authenticator.cursor.sh"];

/**
 * A pasted header (config, then CURSOR_COOKIE) that carries a session cookie, else the browsers'
 * (cached between runs), else the Cursor app's own sign-in, sent as its session cookie.
 */
export const cursorCookie: CredentialSource<string> = firstFound([
  // the default order reads Safari first, where active Cursor sessions often live (Chromium profiles may carry stale ones)
  sessionCookie({ env: COOKIE_ENV, hosts: HOSTS, browsers: DEFAULT_BROWSER_ORDER, session: CURSOR_SESSION }),
  cursorAppCookie,
]);
