import type { QuotabarError } from "../../domain/errors.js";
import type { BrowserAccess, LookupNote } from "../../ports/browser-credentials.js";
import type { ProviderConfigEntry } from "../../ports/config-store.js";
import type { CredentialSource } from "../../ports/credential-source.js";
import type { CredentialContext } from "../../ports/fetch-context.js";
import type { FetchStrategy } from "../../ports/fetch-strategy.js";
import { cookieHeaderOf, cookiePairs, normalizeCookieHeader } from "./cookie-header.js";
import { sessionCookieHeader, type SessionCookieRule } from "./session-cookie.js";

/**
 * Cookies from the user's browsers as a credential, with a cache so browsers are not decrypted
 * on every refresh: the header last imported is kept in the secret store (service "quotabar",
 * account "cookie:<provider id>") until the upstream refuses it.
 */

export const COOKIE_CACHE_SERVICE = "quotabar";
export const cookieCacheAccount = (provider: string) => `cookie:${provider}`;

export interface BrowserCookieOptions {
  /** Hosts the requests go to: a cookie is kept when it would be sent to one of them. */
  hosts: readonly string[];
  /** Browser ids in the order to try; the provider entry's `browsers` list replaces it. */
  browsers: readonly string[];
  /** Only these cookies (default: every cookie of those hosts). */
  names?: readonly string[];
  /** A browser profile counts only when it has a session cookie; `sendOnlySession` trims the header. */
  session?: SessionCookieRule;
}

interface CachedHeader {
  header: string;
  storedAt: string;
  source: string;
}

/** Where the credential handed to a fetch came from, per provider entry of one run (the entry object is the run's). */
const origins = new WeakMap<ProviderConfigEntry, "cache" | "browser">();
/** Entries whose cached header was refused in this run: their retry strategy may run once. */
const retries = new WeakSet<ProviderConfigEntry>();

/** `cookieSource`: auto (the default, and anything unknown), manual (pasted header only) or off. */
export function cookieSourceOf(entry: ProviderConfigEntry): "auto" | "manual" | "off" {
  const value = typeof entry.cookieSource === "string" ? entry.cookieSource.trim().toLowerCase() : "";
  return value === "manual" || value === "off" ? value : "auto";
}

/** The entry's `browsers` override (ids, in order), or null when it has none. */
export function browsersOf(entry: ProviderConfigEntry): string[] | null {
  const list = entry.browsers;
  if (!Array.isArray(list)) return null;
  const ids = list.filter((b): b is string => typeof b === "string" && b.trim() !== "").map((b) => b.trim().toLowerCase());
  return ids.length > 0 ? ids : null;
}

async function readCache(access: BrowserAccess, provider: string): Promise<CachedHeader | null> {
  try {
    const text = await access.secrets.get(COOKIE_CACHE_SERVICE, cookieCacheAccount(provider));
    const cached = text ? (JSON.parse(text) as Partial<CachedHeader>) : null;
    const header = normalizeCookieHeader(typeof cached?.header === "string" ? cached.header : null);
    return header ? { header, storedAt: String(cached?.storedAt ?? ""), source: String(cached?.source ?? "") } : null;
  } catch {
    return null; // no secret store here, or an entry that is not ours: as if nothing was cached
  }
}

/** Forget the provider's cached header (the upstream refused it); whether there was one. */
export async function forgetCookieHeader(context: CredentialContext): Promise<boolean> {
  return context.browsers.secrets.delete(COOKIE_CACHE_SERVICE, cookieCacheAccount(context.entry.id)).catch(() => false);
}

/**
 * Browser cookies as a Cookie header, when `cookieSource` is auto: the cached header first, else
 * the first browser profile (in the order of `browsers`) with the wanted cookies, whose header is
 * then cached. Never prompts in a run nobody watches (the readers' gate sees to it). Put it after
 * `manualCookieHeader` in a `firstFound`, so a pasted header wins.
 */
export function browserCookieHeader(options: BrowserCookieOptions): CredentialSource<string> {
  return {
    async resolve(context) {
      const { entry } = context;
      const access = context.browsers;
      const explain = access.explain?.bind(access);
      const mode = cookieSourceOf(entry);
      if (mode !== "auto") {
        explain?.({ browser: "config", outcome: "skipped", detail: `cookieSource is "${mode}": browsers are not read` });
        return null;
      }
      const cached = await readCache(access, entry.id);
      if (cached && !explain) {
        origins.set(entry, "cache");
        return cached.header;
      }
      if (cached) explain?.(cacheNote(cached));
      const browsers = browsersOf(entry) ?? options.browsers;
      const query = { hosts: options.hosts, browsers, ...(options.names ? { names: options.names } : {}) };
      const { candidates, notes } = await access.cookies.read(query, { interactive: access.interactive });
      if (explain) for (const note of notes) explain(note);
      for (const { browser, profile, cookies } of candidates) {
        const all = cookieHeaderOf(cookies);
        const header = all && options.session ? sessionCookieHeader(all, options.session) : all;
        if (!header) {
          explain?.({
            browser,
            profile,
            outcome: "skipped",
            detail: "none of its cookies is a session cookie",
            cookieNames: cookies.map((c) => c.name),
          });
          continue;
        }
        const names = cookiePairs(header).map((p) => p.name);
        if (explain) {
          explain({
            browser,
            profile,
            outcome: "chosen",
            detail: "the first profile, in browser order, with the cookies wanted",
            cookieNames: names,
          });
          return header;
        }
        const value: CachedHeader = { header, storedAt: context.now().toISOString(), source: `${browser}/${profile}` };
        await access.secrets.set(COOKIE_CACHE_SERVICE, cookieCacheAccount(entry.id), JSON.stringify(value)).catch(() => undefined);
        origins.set(entry, "browser");
        return header;
      }
      return null;
    },
  };
}

function cacheNote(cached: CachedHeader): LookupNote {
  const names = cookiePairs(cached.header).map((p) => p.name);
  const from = cached.source ? ` from ${cached.source}` : "";
  return {
    browser: "cache",
    outcome: "skipped",
    detail: `a cached header${from} (${cached.storedAt}) is used between lookups; set aside here`,
    cookieNames: names,
  };
}

/** What counts as the upstream refusing a cookie: 401, 403, or an expired session. */
export const refusesCookie = (error: QuotabarError) => ["unauthorized", "forbidden", "expired"].includes(error.code);

/**
 * A web strategy twice: as given, then once more with cookies read afresh from the browsers, which
 * runs only when the upstream refused a header that came from the cache. A refused header (from the
 * cache or just imported) is forgotten either way. The second strategy's credential goes through
 * the usage service like any other, so it is redacted from every error too.
 */
export function withFreshCookieRetry<Credential, Reading>(
  strategy: FetchStrategy<Credential, Reading>,
  refused: (error: QuotabarError) => boolean = refusesCookie,
): FetchStrategy<Credential, Reading>[] {
  const fetch: FetchStrategy<Credential, Reading>["fetch"] = async (credential, context) => {
    try {
      return await strategy.fetch(credential, context);
    } catch (error) {
      const origin = origins.get(context.entry);
      if (origin && refused(error as QuotabarError)) {
        await forgetCookieHeader(context);
        if (origin === "cache") retries.add(context.entry);
      }
      throw error;
    }
  };
  const first: FetchStrategy<Credential, Reading> = {
    ...strategy,
    fetch,
    fallbackOn: (error, context) => retries.has(context.entry) || (strategy.fallbackOn?.(error, context) ?? false),
  };
  const retry: FetchStrategy<Credential, Reading> = {
    ...strategy,
    credentials: {
      resolve: async (context) => (retries.delete(context.entry) ? strategy.credentials.resolve(context) : null),
    },
    fetch,
  };
  return [first, retry];
}
