import { browserOrder, sessionCookie, type Remedy, type SessionCookieRule } from "../kit/index.js";

export const COOKIE_ENV = ["OLLAMA_COOKIE"];
export const SETTINGS_URL = "https://ollama.com/settings";
export const PASTE_COOKIE: Remedy = { kind: "set-cookie", provider: "ollama", env: COOKIE_ENV, from: "ollama.com/settings" };

/** Session cookie names ollama.com has used: its own, NextAuth's (whole or in chunks), WorkOS AuthKit's. */
const SESSION_NAMES = new Set(["session", "ollama_session", "__Host-ollama_session", "__Secure-session", "wos-session"]);
const NEXT_AUTH = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/** NextAuth splits a long token into `<name>.0`, `<name>.1`, ...; each chunk marks a session too. */
function isNextAuthSession(name: string): boolean {
  return NEXT_AUTH.some((base) => name === base || (name.startsWith(`${base}.`) && /^\d+$/.test(name.slice(base.length + 1))));
}

/** Every cookie of the header is sent: the page may want more than the session cookie. */
export const OLLAMA_SESSION: SessionCookieRule = {
  isSession: (name) => SESSION_NAMES.has(name) || isNextAuthSession(name),
  sendOnlySession: false,
};

/**
 * A pasted header (config, then OLLAMA_COOKIE) that carries a session cookie, else Chrome's: Chrome
 * only by default, so a Mac with several Chromium browsers sees one Keychain prompt at most.
 */
export const ollamaCookie = sessionCookie({
  env: COOKIE_ENV,
  hosts: ["ollama.com", "www.ollama.com"],
  browsers: browserOrder(["chrome"]),
  session: OLLAMA_SESSION,
});
