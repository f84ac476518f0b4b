import { firstFound, manualCookieHeader, withSessionCookie, type SessionCookieRule } from "../kit/index.js";

export const COOKIE_ENV = ["OPENCODE_COOKIE"];

/** opencode.ai's session is its `auth` cookie (`__Host-auth` on https); only those are sent. */
export const OPENCODE_SESSION: SessionCookieRule = {
  isSession: (name) => name === "auth" || name === "__Host-auth",
  sendOnlySession: true,
};

/** A pasted header (config, then OPENCODE_COOKIE) reduced to its auth cookies. */
export const opencodeCookie = firstFound([
  withSessionCookie(manualCookieHeader(COOKIE_ENV), OPENCODE_SESSION),
  // browser cookies go here: Chrome only by default, domains opencode.ai and app.opencode.ai, kept by OPENCODE_SESSION
]);
