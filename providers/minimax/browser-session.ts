import {
  browserCookieHeaders,
  browserOrder,
  cookieValue,
  explainChosen,
  readCachedCookie,
  type BrowserCookieHeader,
  type CredentialContext,
  type CredentialSource,
} from "../kit/index.js";
import { minimaxTokens } from "./local-storage-token.js";
import { pastedMiniMaxSession, type MiniMaxAttempt, type MiniMaxWebSession } from "./session.js";
import { minimaxCodingPlanUrl, minimaxWebRemainsUrl } from "./urls.js";

/** The spec's order (Safari, then Chrome, then Firefox), Chromium after Chrome on Linux; the entry's `browsers` replaces it. */
const BROWSERS = browserOrder(["safari", "chrome", "firefox"]);
/** Where the web app keeps its access token, on both platforms. */
const WEB_APP_ORIGINS = ["minimax.io", "minimaxi.com"].flatMap((site) => [
  `https://platform.${site}`,
  `https://www.${site}`,
  `https://${site}`,
]);
/** The platform's session cookie; its value stands in as a Bearer token when no access token is found. */
const SESSION_COOKIE = "HERTZ-SESSION";

/** What a cached session kept beside its header: the Bearer token and group id that worked. */
function cachedAttempt(header: string, extra: Record<string, string> | undefined): MiniMaxAttempt {
  return { session: { cookieHeader: header, bearer: extra?.bearer ?? null, groupId: extra?.groupId ?? null }, cached: true, profile: null };
}

/** The hosts the web route's requests go to (the region's platform host, or the overrides'). */
function webHosts(context: CredentialContext): string[] {
  return [...new Set([minimaxCodingPlanUrl(context), minimaxWebRemainsUrl(context, null)].map((url) => new URL(url).hostname))];
}

/** Each profile's Local Storage tokens and group id, by "browser/profile", for the browsers the cookies came from. */
async function localStorageTokens(context: CredentialContext, candidates: readonly BrowserCookieHeader[]) {
  const access = context.browsers;
  const browsers = [...new Set(candidates.map((c) => c.browser))];
  const { entries, notes } = await access.localStorage.read({ origins: WEB_APP_ORIGINS, browsers }, { interactive: access.interactive });
  if (access.explain) for (const note of notes) access.explain(note);
  const byProfile = new Map<string, { key: string; value: string }[]>();
  for (const entry of entries) {
    const label = `${entry.browser}/${entry.profile}`;
    byProfile.set(label, [...(byProfile.get(label) ?? []), entry]);
  }
  return new Map([...byProfile].map(([label, items]) => [label, minimaxTokens(items)]));
}

/**
 * Each browser profile's cookies, tried in turn: with every access token of the same profile's Local
 * Storage as the Bearer token, then with the session cookie's value as one, then with none.
 */
async function browserAttempts(context: CredentialContext): Promise<MiniMaxAttempt[]> {
  const candidates = await browserCookieHeaders(context, { hosts: webHosts(context), browsers: BROWSERS });
  if (candidates.length === 0) return [];
  const tokens = await localStorageTokens(context, candidates);
  const attempts = candidates.flatMap((candidate) => {
    const profile = `${candidate.browser}/${candidate.profile}`;
    const stored = tokens.get(profile) ?? { tokens: [], groupId: null };
    const bearers = [...new Set([...stored.tokens, cookieValue(candidate.header, SESSION_COOKIE), null])];
    return bearers.map((bearer): MiniMaxAttempt => {
      const session: MiniMaxWebSession = { cookieHeader: candidate.header, bearer, groupId: stored.groupId };
      return { session, cached: false, profile };
    });
  });
  const [first] = candidates;
  if (first) {
    const count = tokens.get(`${first.browser}/${first.profile}`)?.tokens.length ?? 0;
    explainChosen(context, first, `tried first, with ${count} access token(s) from its Local Storage; the other profiles after it`);
  }
  return attempts;
}

/**
 * The web route's sessions in the spec's order: the cached one (which alone spares reading the
 * browsers), else every browser profile's, then the manual header. Null when there is none.
 */
export const minimaxWebAttempts: CredentialSource<MiniMaxAttempt[]> = {
  async resolve(context) {
    const cached = await readCachedCookie(context);
    const automatic = cached ? [cachedAttempt(cached.header, cached.extra)] : await browserAttempts(context);
    const manual = await pastedMiniMaxSession.resolve(context);
    const attempts = [...automatic, ...(manual ? [{ session: manual, cached: false, profile: null }] : [])];
    return attempts.length > 0 ? attempts : null;
  },
};
