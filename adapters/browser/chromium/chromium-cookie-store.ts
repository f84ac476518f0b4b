import type { BrowserCookie, CookieCandidate, CookieQuery, LookupNote, LookupOptions } from "../../../ports/browser-credentials.js";
import type { Environment } from "../../../ports/environment.js";
import type { Sqlite } from "../../sqlite/sqlite.js";
import { keptFor, storedDomainsForAll } from "../cookie-jar.js";
import { readDatabaseCopy } from "../database-copy.js";
import type { SecretGate } from "../secret-gate.js";
import { chromiumRoots, type ChromiumBrowser } from "./chromium-browsers.js";
import {
  decryptCookie,
  deriveKey,
  EMPTY_PASSWORD_KEY,
  encryptionVersion,
  LINUX_ITERATIONS,
  MAC_ITERATIONS,
  PEANUTS_KEY,
  plainCookie,
} from "./chromium-crypto.js";
import { fromChromiumTime, KNOWN_CHROMIUM_VERSION, readChromiumCookies, type ChromiumRow } from "./chromium-cookie-db.js";
import { chromiumProfiles, type ChromiumProfile } from "./chromium-profiles.js";
import type { SafeStorage } from "./safe-storage.js";
import { exists } from "../../fs/exists.js";

export interface ChromiumCookieStoreOptions {
  env: Environment;
  platform: NodeJS.Platform;
  sqlite: Sqlite;
  safeStorage: SafeStorage;
  gate: SecretGate;
  now: () => Date;
}

interface ProfileRows {
  profile: ChromiumProfile;
  stores: { version: number; rows: ChromiumRow[] }[];
  errors: string[];
}

/** Whether a row's value needs the OS secret store: every encrypted row on macOS, `v11` on Linux. */
const needsSecret = (platform: NodeJS.Platform, row: ChromiumRow) => {
  if (row.value !== "" || !row.encrypted) return false;
  const version = encryptionVersion(row.encrypted);
  return platform === "darwin" ? version !== null : version === "v11";
};

/**
 * The cookies of one Chromium-family browser: every profile of every user-data directory it has
 * here, each cookie database read through a private copy, values decrypted with the keys the OS
 * gives (the secret store is asked only when a matching row needs it, through the gate).
 */
export class ChromiumCookieStore {
  constructor(private readonly options: ChromiumCookieStoreOptions) {}

  async read(
    browser: ChromiumBrowser,
    query: CookieQuery,
    lookup: LookupOptions,
  ): Promise<{ candidates: CookieCandidate[]; notes: LookupNote[] }> {
    const { env, platform } = this.options;
    const roots = [];
    for (const root of chromiumRoots(browser, platform, env)) if (exists(root)) roots.push(root);
    if (roots.length === 0)
      return {
        candidates: [],
        notes: [{ browser: browser.id, outcome: "not-installed", detail: `${browser.name} has no profile data here` }],
      };
    const profiles = (await Promise.all(roots.map(chromiumProfiles))).flat();
    if (profiles.length === 0) {
      return {
        candidates: [],
        notes: [{ browser: browser.id, outcome: "no-profile", detail: `${browser.name} has no profile with a cookie store` }],
      };
    }
    const hostKeys = storedDomainsForAll(query.hosts);
    const read: ProfileRows[] = [];
    for (const profile of profiles) {
      lookup.signal?.throwIfAborted();
      const entry: ProfileRows = { profile, stores: [], errors: [] };
      for (const file of profile.cookieFiles) {
        try {
          entry.stores.push(await readDatabaseCopy(this.options.sqlite, file, (db) => readChromiumCookies(db, hostKeys)));
        } catch (error) {
          entry.errors.push(
            `${file.endsWith("Network/Cookies") ? "Network/Cookies" : "Cookies"} could not be read: ${(error as Error).message}`,
          );
        }
      }
      read.push(entry);
    }
    const secretRows = read.some((p) => p.stores.some((s) => s.rows.some((row) => needsSecret(platform, row))));
    const secret = secretRows
      ? await this.options.gate.password(browser.id, () => this.options.safeStorage.password(browser, lookup.signal), lookup.interactive)
      : null;
    const keys = this.keys(secret && "password" in secret ? secret.password : null);
    const candidates: CookieCandidate[] = [];
    const notes: LookupNote[] = [];
    for (const { profile, stores, errors } of read) {
      const note = (outcome: LookupNote["outcome"], detail: string, cookieNames?: string[]) =>
        notes.push({ browser: browser.id, profile: profile.label, outcome, detail, ...(cookieNames ? { cookieNames } : {}) });
      const cookies: BrowserCookie[] = [];
      let undecryptable = 0;
      for (const { version, rows } of stores) {
        for (const row of rows) {
          const value = this.value(row, version, keys);
          if (value === null) undecryptable++;
          else cookies.push(toCookie(row, value));
        }
      }
      const kept = keptFor(cookies, query, this.options.now());
      const newer = stores.find((s) => s.version > KNOWN_CHROMIUM_VERSION);
      const remarks = [
        ...errors,
        ...(undecryptable > 0
          ? [`${undecryptable} cookie(s) could not be decrypted${secret && "skipped" in secret ? ` (${secret.skipped})` : ""}`]
          : []),
        ...(newer ? [`cookie database version ${newer.version} is newer than the ${KNOWN_CHROMIUM_VERSION} this reader knows`] : []),
      ];
      if (kept.length > 0) {
        candidates.push({ browser: browser.id, profile: profile.label, cookies: kept });
        note(
          "found",
          [`${kept.length} cookie(s) for ${query.hosts.join(", ")}`, ...remarks].join("; "),
          kept.map((c) => c.name),
        );
      } else if (errors.length > 0 && stores.length === 0) note("error", errors.join("; "));
      else note(undecryptable > 0 ? "skipped" : "nothing", [`no usable cookie for ${query.hosts.join(", ")}`, ...remarks].join("; "));
    }
    return { candidates, notes };
  }

  /** The keys to try, most likely first: the OS password's, then (Linux) the basic store's and the empty password's. */
  private keys(password: string | null): { v10: Buffer[]; v11: Buffer[] } {
    if (this.options.platform === "darwin") {
      const key = password === null ? [] : [deriveKey(password, MAC_ITERATIONS)];
      return { v10: key, v11: key };
    }
    const fromSecret = password === null ? [] : [deriveKey(password, LINUX_ITERATIONS)];
    return { v10: [PEANUTS_KEY, EMPTY_PASSWORD_KEY], v11: [...fromSecret, EMPTY_PASSWORD_KEY] };
  }

  private value(row: ChromiumRow, version: number, keys: { v10: Buffer[]; v11: Buffer[] }): string | null {
    if (row.value !== "") return row.value;
    if (!row.encrypted || row.encrypted.length === 0) return "";
    const prefix = encryptionVersion(row.encrypted);
    if (prefix === null) return plainCookie(row.encrypted);
    return decryptCookie(row.encrypted, row.hostKey, version, prefix === "v11" ? keys.v11 : keys.v10);
  }
}

function toCookie(row: ChromiumRow, value: string): BrowserCookie {
  return {
    name: row.name,
    value,
    domain: row.hostKey,
    hostOnly: !row.hostKey.startsWith("."),
    path: row.path,
    expiresAt: fromChromiumTime(row.expiresUtc),
    secure: row.secure,
    updatedAt: fromChromiumTime(row.updatedUtc),
  };
}
