import type { BrowserAccess, LookupNote } from "../ports/browser-credentials.js";
import type { ProviderConfigEntry } from "../ports/config-store.js";
import { keyOfEntry } from "./account.js";

/** `cookieSource: "chrome:Profile 2"`: one browser profile (its name or folder), for an account of a cookie provider. */
export function cookieProfileOf(entry: ProviderConfigEntry): { browser: string; profile: string } | null {
  const value = typeof entry.cookieSource === "string" ? entry.cookieSource : "";
  const at = value.indexOf(":");
  if (at <= 0) return null;
  const profile = value.slice(at + 1).trim();
  return profile === "" ? null : { browser: value.slice(0, at).trim().toLowerCase(), profile };
}

const NAMED_WITHOUT_PROFILE: LookupNote = {
  browser: "config",
  outcome: "skipped",
  detail: 'a named account reads a browser only for the profile its cookieSource names ("<browser>:<profile>")',
};

/**
 * The browsers an account's credential sources may read: every profile for a default account
 * without a `cookieSource` profile (as before accounts); only the named profile otherwise, and none
 * for a named account without one, so two accounts never take the same browser session. One place
 * for every reader (cookies and Local Storage), whatever kit piece or provider asks.
 */
export function browsersForAccount(entry: ProviderConfigEntry, access: BrowserAccess): BrowserAccess {
  const chosen = cookieProfileOf(entry);
  if (!chosen && keyOfEntry(entry).account === null) return access;
  const same = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: "accent" }) === 0;
  const ours = (found: { browser: string; profile?: string | undefined }) =>
    chosen !== null && found.browser === chosen.browser && (found.profile === undefined || same(found.profile, chosen.profile));
  const onlyChosen = chosen ? [chosen.browser] : [];
  return {
    ...access,
    cookies: {
      async read(query, options) {
        if (!chosen) return { candidates: [], notes: [NAMED_WITHOUT_PROFILE] };
        const { candidates, notes } = await access.cookies.read({ ...query, browsers: onlyChosen }, options);
        return { candidates: candidates.filter(ours), notes: notes.filter(ours) };
      },
    },
    localStorage: {
      async read(query, options) {
        if (!chosen) return { entries: [], notes: [NAMED_WITHOUT_PROFILE] };
        const { entries, notes } = await access.localStorage.read({ ...query, browsers: onlyChosen }, options);
        return { entries: entries.filter(ours), notes: notes.filter(ours) };
      },
    },
  };
}
