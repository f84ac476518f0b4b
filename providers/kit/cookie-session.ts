import type { CredentialContext } from "../../ports/fetch-context.js";
import { keyOfEntry } from "../../domain/account.js";
import { browsersOf, COOKIE_CACHE_SERVICE, cookieCacheAccount, cookieSourceOf, type BrowserCookieOptions } from "./browser-cookies.js";
import { cookieHeaderOf, cookiePairs, normalizeCookieHeader, type CookiePair } from "./cookie-header.js";
import { sessionCookieHeader } from "./session-cookie.js";

/**
 * A web session as a keepalive needs it: the browsers' cookies read afresh (with their expiry), the
 * cached header, a renewed header written back to the cache, and a response's Set-Cookie folded in.
 */

/** The first browser profile's session (in browser order) with the earliest expiry of the cookies it sends; null when `cookieSource` is not auto or none has one. */
export async function browserSession(
  options: BrowserCookieOptions,
  context: CredentialContext,
): Promise<{ header: string; expiresAt: string | null; source: string } | null> {
  if (cookieSourceOf(context.entry) !== "auto") return null;
  const access = context.browsers;
  const browsers = browsersOf(context.entry) ?? options.browsers;
  const query = { hosts: options.hosts, browsers, ...(options.names ? { names: options.names } : {}) };
  const { candidates } = await access.cookies.read(query, { interactive: access.interactive });
  for (const { browser, profile, cookies } of candidates) {
    const all = cookieHeaderOf(cookies);
    const header = all && options.session ? sessionCookieHeader(all, options.session) : all;
    if (!header) continue;
    const sent = new Set(cookiePairs(header).map((p) => p.name));
    const expiries = cookies
      .filter((c) => sent.has(c.name) && c.expiresAt !== null)
      .map((c) => Date.parse(c.expiresAt as string))
      .filter((ms) => !Number.isNaN(ms));
    const expiresAt = expiries.length > 0 ? new Date(Math.min(...expiries)).toISOString() : null;
    return { header, expiresAt, source: `${browser}/${profile}` };
  }
  return null;
}

/** The header `browserCookieHeader` cached for this provider (when `cookieSource` is auto), or null. */
export async function cachedCookieHeader(context: CredentialContext): Promise<string | null> {
  if (cookieSourceOf(context.entry) !== "auto") return null;
  try {
    const text = await context.browsers.secrets.get(COOKIE_CACHE_SERVICE, cookieCacheAccount(keyOfEntry(context.entry)));
    const cached = text ? (JSON.parse(text) as { header?: unknown }) : null;
    return normalizeCookieHeader(typeof cached?.header === "string" ? cached.header : null);
  } catch {
    return null; // no secret store here, or an entry that is not ours
  }
}

/** Keep this header as the provider's cached one (the shape `browserCookieHeader` reads); a failing store is no failure. */
export async function storeCookieHeader(context: CredentialContext, header: string, source: string): Promise<void> {
  const value = JSON.stringify({ header, storedAt: context.now().toISOString(), source });
  await context.browsers.secrets.set(COOKIE_CACHE_SERVICE, cookieCacheAccount(keyOfEntry(context.entry)), value).catch(() => undefined);
}

/** At most this many Set-Cookie lines are read from one response. */
const MAX_SET_COOKIES = 50;

/**
 * The header with a response's Set-Cookie lines applied: a cookie set again takes its new value, a
 * new one is added, and one deleted (empty, `Max-Age=0` or an expiry already past) is dropped.
 */
export function withSetCookies(header: string, setCookie: string | readonly string[] | undefined, now: Date): string {
  const lines = (typeof setCookie === "string" ? [setCookie] : (setCookie ?? [])).slice(0, MAX_SET_COOKIES);
  const pairs: CookiePair[] = cookiePairs(header);
  for (const line of lines) {
    const [first = "", ...attributes] = line.split(";");
    const [pair] = cookiePairs(first);
    if (!pair) continue;
    const at = pairs.findIndex((p) => p.name === pair.name);
    if (deletes(pair, attributes, now)) {
      if (at >= 0) pairs.splice(at, 1);
    } else if (at >= 0) pairs[at] = pair;
    else pairs.push(pair);
  }
  return cookieHeaderOf(pairs) ?? header;
}

function deletes(pair: CookiePair, attributes: readonly string[], now: Date): boolean {
  if (pair.value === "") return true;
  for (const attribute of attributes) {
    const [name = "", value = ""] = attribute.split("=", 2).map((part) => part.trim());
    if (name.toLowerCase() === "max-age" && /^-?\d+$/.test(value) && Number(value) <= 0) return true;
    if (name.toLowerCase() === "expires" && Date.parse(value) <= now.getTime()) return true;
  }
  return false;
}
