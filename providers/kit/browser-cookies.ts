import { keyOfEntry, storageName, type AccountKey } from "../../domain/account.js";
import { QuotabarError } from "../../domain/errors.js";
import { advice, type Remedy } from "../../domain/remedy.js";
import type { BrowserAccess, LookupNote, SecretStore } from "../../ports/browser-credentials.js";
import type { ProviderConfigEntry } from "../../ports/config-store.js";
import type { CredentialSource } from "../../ports/credential-source.js";
import type { CredentialContext } from "../../ports/fetch-context.js";
import type { FetchStrategy } from "../../ports/fetch-strategy.js";
import { cookieHeaderOf, cookiePairs, normalizeCookieHeader } from "./cookie-header.js";
import { cookieHeaderPasted, sessionCookieHeader, type SessionCookieRule } from "./session-cookie.js";

/**
 * Cookies from the user's browsers as a credential, with a cache so browsers are not decrypted
 * on every refresh: the header last imported is kept in the secret store (service "quotabar",
 * account "cookie:<provider id>") until the upstream refuses it.
 */

export const COOKIE_CACHE_SERVICE = "quotabar";
/** `cookie:<id>` for a provider's default account, `cookie:<id>@<account>` for a named one. */
export const cookieCacheAccount = (key: AccountKey) => `cookie:${storageName(key)}`;

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

/** What the cache keeps: the header, when and where it was taken, and what the provider keeps beside it. */
export interface CachedCookie {
  header: string;
  storedAt: string;
  source: string;
  extra?: Record<string, string>;
}

/** How many notes a missing-credential advice quotes. */
const MAX_ADVICE_NOTES = 6;

/** Where the credential handed to a fetch came from, per provider entry of one run (the entry object is the run's). */
const origins = new WeakMap<ProviderConfigEntry, "cache" | "browser">();
/** Entries whose cached header was refused in this run: their retry strategy may run once. */
const retries = new WeakSet<ProviderConfigEntry>();
/** What the last browser lookup of a provider entry saw in this run, for its missing-credential error. */
const lookups = new WeakMap<ProviderConfigEntry, LookupNote[]>();

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

async function readCache(access: BrowserAccess, provider: AccountKey): Promise<CachedCookie | null> {
  try {
    const text = await access.secrets.get(COOKIE_CACHE_SERVICE, cookieCacheAccount(provider));
    const cached = text ? (JSON.parse(text) as Partial<CachedCookie>) : null;
    const header = normalizeCookieHeader(typeof cached?.header === "string" ? cached.header : null);
    if (!header) return null;
    const kept = typeof cached?.extra === "object" && cached.extra !== null ? Object.entries(cached.extra) : [];
    const extra = Object.fromEntries(kept.filter((pair): pair is [string, string] => typeof pair[1] === "string"));
    return { header, storedAt: String(cached?.storedAt ?? ""), source: String(cached?.source ?? ""), extra };
  } catch {
    return null; // no secret store here, or an entry that is not ours: as if nothing was cached
  }
}

/** Forget the provider's cached header (the upstream refused it); whether there was one. */
export async function forgetCookieHeader(context: CredentialContext): Promise<boolean> {
  return forgetCachedCookieHeader(context.browsers.secrets, keyOfEntry(context.entry));
}

/** The same, from outside a fetch (`quotabar cache clear`, logout). */
export function forgetCachedCookieHeader(secrets: SecretStore, key: AccountKey): Promise<boolean> {
  return secrets.delete(COOKIE_CACHE_SERVICE, cookieCacheAccount(key)).catch(() => false);
}

/** One browser profile whose cookies satisfy a provider's rule, as the Cookie header it would send. */
export interface BrowserCookieHeader {
  browser: string;
  profile: string;
  header: string;
}

/**
 * The cached header of the provider, when `cookieSource` is auto: null when there is none, and null
 * while explaining (`quotabar cookies`), which only describes it. Marks the fetch as served from the
 * cache, so `withFreshCookieRetry` reads the browsers afresh when the upstream refuses it.
 */
export async function readCachedCookie(context: CredentialContext): Promise<CachedCookie | null> {
  if (cookieSourceOf(context.entry) !== "auto") return null;
  const access = context.browsers;
  const cached = await readCache(access, keyOfEntry(context.entry));
  if (!cached) return null;
  if (access.explain) {
    access.explain(cacheNote(cached));
    return null;
  }
  origins.set(context.entry, "cache");
  return cached;
}

/**
 * Every browser profile, in browser order (the entry's `browsers` replaces the given one), whose
 * cookies satisfy `session`, as headers; none unless `cookieSource` is auto. Reads no cache and
 * writes none; what it saw is kept for `browserLookupAdvice` and told to `explain`.
 */
export async function browserCookieHeaders(context: CredentialContext, options: BrowserCookieOptions): Promise<BrowserCookieHeader[]> {
  const { entry } = context;
  const access = context.browsers;
  const explain = access.explain?.bind(access);
  const mode = cookieSourceOf(entry);
  if (mode !== "auto") {
    explain?.({ browser: "config", outcome: "skipped", detail: `cookieSource is "${mode}": browsers are not read` });
    return [];
  }
  const browsers = browsersOf(entry) ?? options.browsers;
  const query = { hosts: options.hosts, browsers, ...(options.names ? { names: options.names } : {}) };
  const { candidates, notes } = await access.cookies.read(query, { interactive: access.interactive });
  if (explain) for (const note of notes) explain(note);
  const seen = [...notes];
  const found: BrowserCookieHeader[] = [];
  for (const { browser, profile, cookies } of candidates) {
    const all = cookieHeaderOf(cookies);
    const header = all && options.session ? sessionCookieHeader(all, options.session) : all;
    if (header) {
      found.push({ browser, profile, header });
      continue;
    }
    const skipped: LookupNote = {
      browser,
      profile,
      outcome: "skipped",
      detail: "none of its cookies is a session cookie",
      cookieNames: cookies.map((c) => c.name),
    };
    seen.push(skipped);
    explain?.(skipped);
  }
  // in browser order, each browser's profiles after what the reader said of it
  const rank = (note: LookupNote) => (browsers.includes(note.browser) ? browsers.indexOf(note.browser) : browsers.length);
  lookups.set(
    entry,
    seen.sort((a, b) => rank(a) - rank(b)),
  );
  if (found.length > 0 && !explain) origins.set(entry, "browser");
  return found;
}

/** Keeps a header taken from a browser (with what the provider keeps beside it, a Bearer token say) for the next runs; never while explaining. */
export async function keepCookieHeader(
  context: CredentialContext,
  found: BrowserCookieHeader,
  extra?: Record<string, string>,
): Promise<void> {
  const access = context.browsers;
  if (access.explain) return;
  const value: CachedCookie = {
    header: found.header,
    storedAt: context.now().toISOString(),
    source: `${found.browser}/${found.profile}`,
    ...(extra && Object.keys(extra).length > 0 ? { extra } : {}),
  };
  await access.secrets
    .set(COOKIE_CACHE_SERVICE, cookieCacheAccount(keyOfEntry(context.entry)), JSON.stringify(value))
    .catch(() => undefined);
}

/** Tells `explain` which profile the provider went with. */
export function explainChosen(context: CredentialContext, found: BrowserCookieHeader, detail: string): void {
  context.browsers.explain?.({
    browser: found.browser,
    profile: found.profile,
    outcome: "chosen",
    detail,
    cookieNames: cookiePairs(found.header).map((p) => p.name),
  });
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
      const cached = await readCachedCookie(context);
      if (cached) return cached.header;
      const [first] = await browserCookieHeaders(context, options);
      if (!first) return null;
      if (context.browsers.explain) explainChosen(context, first, "the first profile, in browser order, with the cookies wanted");
      else await keepCookieHeader(context, first);
      return first.header;
    },
  };
}

/**
 * What the browsers showed when they gave the provider no cookie (never a value): an advice for its
 * missing-credential error, so "no session cookie", "could not be decrypted" or "could not be read"
 * reach the user, and the browsers not installed here in one list. Nothing when no browser was
 * looked at for this entry in this run.
 */
export function browserLookupAdvice(context: CredentialContext): Remedy[] {
  const notes = (lookups.get(context.entry) ?? []).filter((n) => n.outcome !== "found" && n.outcome !== "chosen");
  const absent = notes.filter((n) => n.outcome === "not-installed").map((n) => n.browser);
  const seen = notes.filter((n) => n.outcome !== "not-installed");
  const said = seen.slice(0, MAX_ADVICE_NOTES).map((n) => `${n.profile ? `${n.browser} (${n.profile})` : n.browser}: ${n.detail}`);
  if (seen.length > MAX_ADVICE_NOTES) said.push(`and ${seen.length - MAX_ADVICE_NOTES} more`);
  if (absent.length > 0) said.push(`not installed here: ${absent.join(", ")}`);
  return said.length === 0 ? [] : [advice(`Browsers looked at: ${said.join("; ")}.`)];
}

function cacheNote(cached: CachedCookie): LookupNote {
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

/**
 * The not-configured error of a cookie provider, telling nothing pasted from a header without a
 * session cookie: what the browsers showed first (browserLookupAdvice), then the provider's remedies.
 */
export function missingSessionCookie(
  context: CredentialContext,
  envNames: readonly string[],
  messages: { none: string; withoutSession: string },
  ...remedies: Remedy[]
): QuotabarError {
  const message = cookieHeaderPasted(context, envNames) ? messages.withoutSession : messages.none;
  return new QuotabarError("not_configured", message, { remedies: [...browserLookupAdvice(context), ...remedies] });
}
