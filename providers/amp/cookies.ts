import { firstFound, manualCookieHeader, withSessionCookie, type SessionCookieRule } from "../kit/index.js";

export const COOKIE_ENV = ["AMP_COOKIE"];

/** ampcode.com knows a signed-in browser by its `session` cookie alone; nothing else is sent. */
export const AMP_SESSION: SessionCookieRule = { isSession: (name) => name === "session", sendOnlySession: true };

/** A pasted header (config, then AMP_COOKIE) reduced to its `session` cookie. */
export const ampCookie = firstFound([
  withSessionCookie(manualCookieHeader(COOKIE_ENV), AMP_SESSION),
  // browser cookies go here: the default browser order, domains ampcode.com and www.ampcode.com, kept by AMP_SESSION
]);
