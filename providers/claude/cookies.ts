import {
  browserCookieHeader,
  browserOrder,
  DEFAULT_BROWSER_ORDER,
  firstFound,
  manualCookieHeader,
  mapped,
  withSessionCookie,
  type SessionCookieRule,
} from "../kit/index.js";

export const COOKIE_ENV = ["CLAUDE_COOKIE"];

/** claude.ai signs in with `sessionKey` alone: only it is sent. */
const CLAUDE_SESSION: SessionCookieRule = { isSession: (name) => name === "sessionKey", sendOnlySession: true };

/** A bare pasted value (`sk-ant-sid01-…`) is the sessionKey. */
const asHeader = (header: string): string => (header.includes("=") ? header : `sessionKey=${header}`);

/** A pasted header or value (config `cookieHeader`, then CLAUDE_COOKIE), else the browsers' claude.ai cookies (cached between runs). */
export const claudeCookie = firstFound([
  withSessionCookie(mapped(manualCookieHeader(COOKIE_ENV), asHeader), CLAUDE_SESSION),
  browserCookieHeader({
    hosts: ["claude.ai"],
    browsers: browserOrder(DEFAULT_BROWSER_ORDER),
    names: ["sessionKey"],
    session: CLAUDE_SESSION,
  }),
]);
