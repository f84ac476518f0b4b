import type { BrowserCookie, CookieCandidate } from "../../ports/browser-credentials.js";
import { browserCookieCandidates, browserOrder, browsersOf, cleanSecret, cookieHeaderOf, type CredentialContext } from "../kit/index.js";
import type { Step } from "./chain.js";
import { FACTORY_HOSTS, FACTORY_SESSION, presentCookies, WORKOS_HOSTS, type Presented } from "./cookies.js";

/** Steps 5 to 9: what the user's browsers hold (Local Storage tokens, Factory's and WorkOS's cookies); their reads are in wire.ts. */

/**
 * What goes with a credential but is no secret (where it came from, the cookies' domains): behind a
 * function, since the usage service redacts every string of a credential from what it shows.
 */
const aside =
  <T>(value: T) =>
  () =>
    value;

const LOCAL_STORAGE_ORIGINS = ["https://app.factory.ai", "https://auth.factory.ai"];
const REFRESH_KEY = "workos:refresh-token";
const ACCESS_KEY = "workos:access-token";
/** Safari, then the Chromium browsers whose Local Storage Factory's importer reads. */
const LOCAL_STORAGE_BROWSERS = [
  "safari",
  "chrome",
  "chrome-beta",
  "chrome-canary",
  "arc",
  "arc-beta",
  "arc-canary",
  "dia",
  "atlas",
  "chromium",
  "helium",
];
/** "Chrome/Firefox" of the spec (on Linux Chromium too, read right after Chrome). */
const CHROME_FIREFOX = ["chrome", "firefox"];

/** The browsers of a step: its own list, or the entry's `browsers` list taken apart (Safari for steps 6-7, the rest for 8-9). */
function browsersFor(context: CredentialContext, step: "local-storage" | "safari" | "others"): string[] {
  const chosen = browsersOf(context.entry);
  if (step === "local-storage") return chosen ?? LOCAL_STORAGE_BROWSERS;
  if (step === "safari") return chosen ? chosen.filter((b) => b === "safari") : ["safari"];
  return chosen ? chosen.filter((b) => b !== "safari") : browserOrder(CHROME_FIREFOX);
}

export interface StoredTokens {
  accessToken: string | null;
  refreshToken: string | null;
  from: () => string;
}

export const localStorageTokens: Step<StoredTokens[]> = {
  number: 5,
  title: "WorkOS tokens in Local Storage",
  source: "oauth",
  async find(context) {
    const access = context.browsers;
    const query = { origins: LOCAL_STORAGE_ORIGINS, keys: [REFRESH_KEY, ACCESS_KEY], browsers: browsersFor(context, "local-storage") };
    const { entries, notes } = await access.localStorage.read(query, { interactive: access.interactive });
    for (const note of notes) access.explain?.(note);
    const byProfile = new Map<string, StoredTokens>();
    for (const entry of entries) {
      const from = `${entry.browser}/${entry.profile}`;
      const tokens = byProfile.get(from) ?? { accessToken: null, refreshToken: null, from: aside(from) };
      const value = cleanSecret(entry.value);
      if (entry.key === REFRESH_KEY) tokens.refreshToken ??= value;
      if (entry.key === ACCESS_KEY) tokens.accessToken ??= value;
      byProfile.set(from, tokens);
    }
    const found = [...byProfile.values()].filter((t) => t.accessToken || t.refreshToken);
    if (found.length === 0)
      return { credential: null, outcome: "nothing", detail: `no ${REFRESH_KEY} or ${ACCESS_KEY} for app.factory.ai` };
    return {
      credential: found,
      detail: `tokens in ${found.map((t) => t.from()).join(", ")}`,
      names: [...new Set(entries.map((e) => e.key))],
    };
  },
  read: async (found, context) => (await import("./wire.js")).readLocalStorageTokens(found, context),
};

const profileWords = (candidates: readonly CookieCandidate[]) => candidates.map((c) => `${c.browser}/${c.profile}`).join(", ");

/** A browser profile's cookies as a credential: the header (and the bearer it implies); the rest aside. */
export interface ProfileCookies extends Presented {
  origin: () => { from: string; cookies: BrowserCookie[] };
}
const profileCookies = ({ browser, profile, cookies }: CookieCandidate): ProfileCookies => ({
  ...presentCookies(cookieHeaderOf(cookies) as string),
  origin: aside({ from: `${browser}/${profile}`, cookies }),
});

/** Steps 6 and 8: the first profile whose Factory cookies give usage; they are kept in the session file and the cache. */
function browserCookies(number: 6 | 8, title: string, which: "safari" | "others"): Step<ProfileCookies[]> {
  return {
    number,
    title,
    source: "web",
    async find(context) {
      const candidates = await browserCookieCandidates(
        context,
        { hosts: FACTORY_HOSTS, browsers: browsersFor(context, which) },
        FACTORY_SESSION,
      );
      if (candidates.length === 0)
        return { credential: null, outcome: "nothing", detail: "no browser profile here has a Factory session cookie" };
      return {
        credential: candidates.map(profileCookies),
        detail: `session cookies in ${profileWords(candidates)}`,
        names: candidates[0]?.cookies.map((c) => c.name) ?? [],
      };
    },
    read: async (candidates, context) => (await import("./wire.js")).readBrowserCookies(candidates, context),
  };
}

/** A browser profile's workos.com cookies as a credential; where they came from aside. */
export interface WorkosProfile {
  workosCookies: string;
  from: () => string;
}

/** Steps 7 and 9: a profile's WorkOS cookies exchanged for a token (no refresh token in the body). */
function workosCookies(number: 7 | 9, title: string, which: "safari" | "others"): Step<WorkosProfile[]> {
  return {
    number,
    title,
    source: "oauth",
    async find(context) {
      const candidates = await browserCookieCandidates(context, { hosts: WORKOS_HOSTS, browsers: browsersFor(context, which) });
      if (candidates.length === 0)
        return { credential: null, outcome: "nothing", detail: "no browser profile here has workos.com cookies" };
      return {
        credential: candidates.map(({ browser, profile, cookies }) => ({
          workosCookies: cookieHeaderOf(cookies) as string,
          from: aside(`${browser}/${profile}`),
        })),
        detail: `workos.com cookies in ${profileWords(candidates)}`,
        names: candidates[0]?.cookies.map((c) => c.name) ?? [],
      };
    },
    read: async (candidates, context) => (await import("./wire.js")).readWorkosCookies(candidates, context),
  };
}

export const safariCookies = browserCookies(6, "Safari cookies", "safari");
export const safariWorkosCookies = workosCookies(7, "Safari workos.com cookies, minted through WorkOS", "safari");
export const chromeFirefoxCookies = browserCookies(8, "Chrome/Firefox cookies", "others");
export const chromeFirefoxWorkosCookies = workosCookies(9, "Chrome/Firefox workos.com cookies, minted through WorkOS", "others");
