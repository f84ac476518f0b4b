import { statSync } from "node:fs";
import { join } from "node:path";
import type { CookieCandidate, CookieQuery, LookupNote, LookupOptions } from "../../../ports/browser-credentials.js";
import type { Environment } from "../../../ports/environment.js";
import type { Sqlite } from "../../sqlite/sqlite.js";
import { keptFor, storedDomainsForAll } from "../cookie-jar.js";
import { readDatabaseCopy } from "../database-copy.js";
import { geckoRoots, type GeckoBrowser } from "./gecko-browsers.js";
import { KNOWN_GECKO_VERSION, readGeckoCookies } from "./gecko-cookie-db.js";
import { geckoProfiles } from "./gecko-profiles.js";
import { exists } from "../../fs/exists.js";

export interface GeckoCookieStoreOptions {
  env: Environment;
  platform: NodeJS.Platform;
  sqlite: Sqlite;
  now: () => Date;
}

/**
 * The cookies of a Gecko browser (Firefox, Zen): plaintext in each profile's cookies.sqlite, read
 * through a copy that includes the WAL, where a running Firefox keeps its fresh rows. No key, so
 * never a prompt.
 */
export class GeckoCookieStore {
  constructor(private readonly options: GeckoCookieStoreOptions) {}

  async read(
    browser: GeckoBrowser,
    query: CookieQuery,
    lookup: LookupOptions,
  ): Promise<{ candidates: CookieCandidate[]; notes: LookupNote[] }> {
    const roots = newestFirst(geckoRoots(browser, this.options.platform, this.options.env).filter(exists));
    const profiles = (await Promise.all(roots.map(geckoProfiles))).flat();
    if (profiles.length === 0) {
      const note: LookupNote =
        roots.length === 0
          ? { browser: browser.id, outcome: "not-installed", detail: `${browser.name} has no profile data here` }
          : { browser: browser.id, outcome: "no-profile", detail: `${browser.name} has no profile with a cookie database` };
      return { candidates: [], notes: [note] };
    }
    const hosts = storedDomainsForAll(query.hosts);
    const candidates: CookieCandidate[] = [];
    const notes: LookupNote[] = [];
    for (const profile of profiles) {
      lookup.signal?.throwIfAborted();
      const note = (outcome: LookupNote["outcome"], detail: string, cookieNames?: string[]) =>
        notes.push({ browser: browser.id, profile: profile.label, outcome, detail, ...(cookieNames ? { cookieNames } : {}) });
      let read;
      try {
        read = await readDatabaseCopy(this.options.sqlite, join(profile.dir, "cookies.sqlite"), (db) => readGeckoCookies(db, hosts));
      } catch (error) {
        note("error", `cookies.sqlite could not be read: ${(error as Error).message}`);
        continue;
      }
      const kept = keptFor(read.cookies, query, this.options.now());
      const newer =
        read.version > KNOWN_GECKO_VERSION
          ? [`cookie database version ${read.version} is newer than the ${KNOWN_GECKO_VERSION} this reader knows`]
          : [];
      if (kept.length > 0) {
        candidates.push({ browser: browser.id, profile: profile.label, cookies: kept });
        note(
          "found",
          [`${kept.length} cookie(s) for ${query.hosts.join(", ")}`, ...newer].join("; "),
          kept.map((c) => c.name),
        );
      } else note("nothing", [`no usable cookie for ${query.hosts.join(", ")}`, ...newer].join("; "));
    }
    return { candidates, notes };
  }
}

/**
 * Linux has two roots (~/.mozilla/firefox, and $XDG_CONFIG_HOME/mozilla/firefox where Firefox 147+
 * starts fresh); a machine that had both uses the one Firefox wrote last. Ties keep the given order.
 */
function newestFirst(roots: string[]): string[] {
  const written = (root: string) => statSync(join(root, "profiles.ini"), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const at = new Map(roots.map((root) => [root, written(root)]));
  return [...roots].sort((a, b) => (at.get(b) as number) - (at.get(a) as number));
}
