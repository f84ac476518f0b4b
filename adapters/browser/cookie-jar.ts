import type { BrowserCookie, CookieQuery } from "../../ports/browser-credentials.js";

/**
 * Which stored cookies a request to a host would carry (RFC 6265 section 5.1.3 and 5.3): a host-only
 * cookie goes to its own host only; a domain cookie to its domain and every subdomain on a label
 * boundary. Expired cookies are dropped, and of two copies of one cookie the fresher wins.
 */

const bare = (domain: string) => domain.replace(/^\./, "").toLowerCase();

/** Whether a request to `host` would carry this cookie. */
export function sentTo(cookie: Pick<BrowserCookie, "domain" | "hostOnly">, host: string): boolean {
  const target = host.toLowerCase();
  const domain = bare(cookie.domain);
  if (domain === "") return false;
  if (cookie.hostOnly) return target === domain;
  return target === domain || target.endsWith(`.${domain}`);
}

/**
 * The stored domains whose cookies a request to `host` may carry, for a database's `IN (...)` filter:
 * the host itself (host-only) and, as domain cookies, the host and each parent with two labels or more.
 */
export function storedDomainsFor(host: string): string[] {
  const labels = host.toLowerCase().replace(/^\./, "").split(".").filter(Boolean);
  const domains = [labels.join(".")];
  for (let i = 0; i <= labels.length - 2; i++) domains.push(`.${labels.slice(i).join(".")}`);
  return [...new Set(domains)];
}

/** The stored domains of several hosts, once each. */
export function storedDomainsForAll(hosts: readonly string[]): string[] {
  return [...new Set(hosts.flatMap(storedDomainsFor))];
}

const identity = (c: BrowserCookie) => `${c.name}\u0000${bare(c.domain)}\u0000${c.hostOnly ? "host" : "domain"}\u0000${c.path}`;
const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NaN);

/** Of two copies of one cookie, the one written last; when that is unknown, the one that lives longer (a session cookie least). */
export function fresher(a: BrowserCookie, b: BrowserCookie): BrowserCookie {
  const [writtenA, writtenB] = [time(a.updatedAt), time(b.updatedAt)];
  if (Number.isFinite(writtenA) && Number.isFinite(writtenB) && writtenA !== writtenB) return writtenB > writtenA ? b : a;
  const [endA, endB] = [time(a.expiresAt), time(b.expiresAt)];
  if (!Number.isFinite(endA)) return Number.isFinite(endB) ? b : a;
  return Number.isFinite(endB) && endB > endA ? b : a;
}

/** The cookies a query keeps: sent to one of its hosts, of its names (when it names any), unexpired, one copy each. */
export function keptFor(cookies: readonly BrowserCookie[], query: Pick<CookieQuery, "hosts" | "names">, now: Date): BrowserCookie[] {
  const kept = new Map<string, BrowserCookie>();
  for (const cookie of cookies) {
    if (query.names && !query.names.includes(cookie.name)) continue;
    if (!query.hosts.some((host) => sentTo(cookie, host))) continue;
    if (cookie.expiresAt !== null && time(cookie.expiresAt) <= now.getTime()) continue;
    const key = identity(cookie);
    const other = kept.get(key);
    kept.set(key, other ? fresher(other, cookie) : cookie);
  }
  return [...kept.values()];
}
