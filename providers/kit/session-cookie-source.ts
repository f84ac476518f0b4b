import type { Remedy } from "../../domain/remedy.js";
import type { CredentialSource } from "../../ports/credential-source.js";
import { browserCookieHeader, type BrowserCookieOptions } from "./browser-cookies.js";
import { firstFound, manualCookieHeader } from "./credentials.js";
import { withSessionCookie, type SessionCookieRule } from "./session-cookie.js";

/**
 * The chain of a provider that signs in with one session cookie: a pasted header (config
 * `cookieHeader`, then the variables) that carries it, else the browsers' (cached between runs).
 */
export function sessionCookie(
  options: BrowserCookieOptions & { env: readonly string[]; session: SessionCookieRule },
): CredentialSource<string> {
  return firstFound([withSessionCookie(manualCookieHeader(options.env), options.session), browserCookieHeader(options)]);
}

/** What to do when the provider's default browsers are not the ones signed in: name others in its entry. */
export const chooseBrowsers = (provider: string): Remedy => ({ kind: "set-config", provider, field: "browsers", example: '["firefox"]' });
