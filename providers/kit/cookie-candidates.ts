import type { CookieCandidate, CookieQuery } from "../../ports/browser-credentials.js";
import type { CredentialContext } from "../../ports/fetch-context.js";
import { cookieSourceOf } from "./browser-cookies.js";
import { cookieHeaderOf } from "./cookie-header.js";
import { sessionCookieHeader, type SessionCookieRule } from "./session-cookie.js";

/**
 * The browser profiles, in the order of `query.browsers`, with cookies for its hosts (and, given a
 * rule, a session cookie among them), each cookie with its domain and expiry: for a provider that
 * tries several profiles or needs more than a header. None unless `cookieSource` is auto. What was
 * looked at goes to `explain`; nothing is cached. The caller chooses the browsers (the entry's
 * `browsers` list included).
 */
export async function browserCookieCandidates(
  context: CredentialContext,
  query: CookieQuery,
  session?: SessionCookieRule,
): Promise<CookieCandidate[]> {
  const access = context.browsers;
  const explain = access.explain?.bind(access);
  if (cookieSourceOf(context.entry) !== "auto" || query.browsers.length === 0) return [];
  const { candidates, notes } = await access.cookies.read(query, { interactive: access.interactive });
  if (explain) for (const note of notes) explain(note);
  return candidates.filter(({ browser, profile, cookies }) => {
    const header = cookieHeaderOf(cookies);
    if (header && (!session || sessionCookieHeader(header, session))) return true;
    explain?.({
      browser,
      profile,
      outcome: "skipped",
      detail: header ? "none of its cookies is a session cookie" : "none of its cookies can be sent in a header",
      cookieNames: cookies.map((c) => c.name),
    });
    return false;
  });
}
