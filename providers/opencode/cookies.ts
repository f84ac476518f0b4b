import { browserOrder, sessionCookie, type SessionCookieRule } from "../kit/index.js";

export const COOKIE_ENV = ["OPENCODE_COOKIE"];

/** opencode.ai's session is its `auth` cookie (`__Host-auth` on https); only those are sent. */
export const OPENCODE_SESSION: SessionCookieRule = {
  isSession: (name) => name === "auth" || name === "__Host-auth",
  sendOnlySession: true,
};

/** A pasted header (config, then OPENCODE_COOKIE) reduced to its auth cookies, else Chrome's: Chrome only by default, to avoid more browser prompts. */
export const opencodeCookie = sessionCookie({
  env: COOKIE_ENV,
  hosts: ["opencode.ai", "app.opencode.ai"],
  browsers: browserOrder(["chrome"]),
  session: OPENCODE_SESSION,
});
