import { DEFAULT_BROWSER_ORDER, sessionCookie, type Remedy, type SessionCookieRule } from "../kit/index.js";

export const COOKIE_ENV = ["AMP_COOKIE"];
export const SETTINGS_URL = "https://ampcode.com/settings";
export const SIGN_IN_AGAIN: Remedy[] = [
  { kind: "browser-sign-in", url: SETTINGS_URL },
  { kind: "set-cookie", provider: "amp", env: COOKIE_ENV, from: "ampcode.com/settings" },
];

/** ampcode.com knows a signed-in browser by its `session` cookie alone; nothing else is sent. */
export const AMP_SESSION: SessionCookieRule = { isSession: (name) => name === "session", sendOnlySession: true };

/** A pasted header (config, then AMP_COOKIE) reduced to its `session` cookie, else the first browser's in the default order (cached between runs). */
export const ampCookie = sessionCookie({
  env: COOKIE_ENV,
  hosts: ["ampcode.com", "www.ampcode.com"],
  browsers: DEFAULT_BROWSER_ORDER,
  session: AMP_SESSION,
});
