import { browserCookieHeader, firstFound, manualCookieHeader, type BrowserCookieOptions, type SessionCookieRule } from "../kit/index.js";

export const COOKIE_ENV = ["AUGMENT_COOKIE"];
export const APP_ORIGIN = "https://app.augmentcode.com";

/** Session cookies Augment has used: its own, WorkOS's, and those of the auth libraries it signs in with. */
const SESSION_NAMES = new Set(["_session", "session", "web_rpc_proxy_session", "wos-session", "auth0", "a0.spajs.txs"]);
/** `<lib>.session-token` (NextAuth also in chunks `.0`, `.1`), `__Secure-` and `__Host-` forms, `<lib>.is.authenticated`. */
const LIBRARY_FORMS = [
  /^(?:__Secure-)?[A-Za-z0-9_-]{1,40}\.session-token(?:\.\d{1,3})?$/,
  /^__Host-[A-Za-z0-9_-]{1,40}\.csrf-token$/,
  /^[A-Za-z0-9_-]{1,40}\.is\.authenticated$/,
];

/** A profile counts when it holds one of these; all of its cookies are sent, as Augment's web app sends them. */
export const AUGMENT_SESSION: SessionCookieRule = {
  isSession: (name) => SESSION_NAMES.has(name) || LIBRARY_FORMS.some((form) => form.test(name)),
  sendOnlySession: false,
};

/** The reference's order; Chromium last, for Linux, where it is often the only Chromium there is. */
export const BROWSERS = [
  "safari",
  "chrome",
  "chrome-beta",
  "chrome-canary",
  "edge",
  "edge-beta",
  "brave",
  "arc",
  "dia",
  "arc-beta",
  "firefox",
  "chromium",
];

export const AUGMENT_COOKIES: BrowserCookieOptions = {
  hosts: ["app.augmentcode.com", "augmentcode.com"],
  browsers: BROWSERS,
  session: AUGMENT_SESSION,
};

/** A pasted header (config, then AUGMENT_COOKIE), sent as it is; else the browsers' cookies (cached between runs). */
export const augmentCookie = firstFound([manualCookieHeader(COOKIE_ENV), browserCookieHeader(AUGMENT_COOKIES)]);
