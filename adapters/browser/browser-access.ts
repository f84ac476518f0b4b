import { join } from "node:path";
import type {
  BrowserAccess,
  BrowserCookieReader,
  CookieCandidate,
  LocalStorageEntry,
  LocalStorageReader,
  LookupNote,
  SecretStore,
} from "../../ports/browser-credentials.js";
import type { Clock } from "../../ports/clock.js";
import type { Environment } from "../../ports/environment.js";
import { homeOf } from "../config/config-path.js";
import type { ProcessRunner } from "../../ports/process-runner.js";
import type { TextStore } from "../../ports/text-store.js";
import type { Sqlite } from "../sqlite/sqlite.js";
import { chromiumBrowser, chromiumRoots } from "./chromium/chromium-browsers.js";
import { ChromiumCookieStore } from "./chromium/chromium-cookie-store.js";
import { chromiumProfileDirs } from "./chromium/chromium-profiles.js";
import {
  keychainPassword,
  KeychainSafeStorage,
  LibsecretSafeStorage,
  type SafeStorage,
  type SafeStorageAnswer,
} from "./chromium/safe-storage.js";
import { geckoBrowser } from "./gecko/gecko-browsers.js";
import { GeckoCookieStore } from "./gecko/gecko-cookie-store.js";
import type { ChromiumLocalStorageReader } from "./leveldb/chromium-local-storage.js";
import { appStateReader } from "./app-state.js";
import { safariCookieReader, safariLocalStorageReader } from "./safari/safari-readers.js";
import { SecretGate } from "./secret-gate.js";
import { exists } from "../fs/exists.js";

export interface BrowserAccessOptions {
  /** HOME, XDG_CONFIG_HOME, CHROME_CONFIG_HOME say where browsers keep their data; the D-Bus address reaches the Secret Service. */
  env: Environment;
  platform: NodeJS.Platform;
  sqlite: Sqlite;
  /** Where working cookie headers are cached (the OS keyring, or Raycast's LocalStorage). */
  secrets: SecretStore;
  /** Runs `security` (macOS) and `secret-tool` (Linux). */
  processes: ProcessRunner;
  /** Keeps the per-browser cooldown after a denial between runs. */
  store: TextStore;
  clock: Clock;
  interactive: boolean;
  /** The global switch: false keeps every browser key in the OS secret store unasked. */
  browserSecretsAllowed: () => Promise<boolean>;
  /** Replaces the OS's Safe Storage reader (tests). */
  safeStorage?: SafeStorage;
  /** Replaces the Keychain reader of another program's item (tests). */
  appKeychain?: (item: { service: string; account?: string }) => Promise<SafeStorageAnswer>;
  /** Chromium Local Storage of one profile (classic-level for the CLI, the pure reader in Raycast). */
  chromiumLocalStorage?: ChromiumLocalStorageReader;
  /** Replaces Safari's readers (macOS only; default: the binarycookies and localstorage.sqlite3 readers under HOME). */
  safari?: { cookies?: BrowserCookieReader; localStorage?: LocalStorageReader };
}

const note = (browser: string, outcome: LookupNote["outcome"], detail: string): LookupNote => ({ browser, outcome, detail });

/**
 * Every browser behind the two reader ports: a query names browser ids in order, and each is read
 * by its family (Chromium, Gecko, Safari). One gate per instance: build one per run, so a browser's
 * key is asked for at most once.
 */
export function createBrowserAccess(options: BrowserAccessOptions): BrowserAccess {
  const now = () => options.clock.now();
  const safeStorage =
    options.safeStorage ??
    (options.platform === "darwin"
      ? new KeychainSafeStorage(options.processes, options.env)
      : new LibsecretSafeStorage(options.processes, options.env));
  const gate = new SecretGate({
    store: options.store,
    clock: options.clock,
    interactive: options.interactive,
    allowed: options.browserSecretsAllowed,
  });
  const chromium = new ChromiumCookieStore({
    env: options.env,
    platform: options.platform,
    sqlite: options.sqlite,
    safeStorage,
    gate,
    now,
  });
  const gecko = new GeckoCookieStore({ env: options.env, platform: options.platform, sqlite: options.sqlite, now });
  const home = homeOf(options.env);
  const safari = {
    cookies: options.safari?.cookies ?? safariCookieReader({ home, now }),
    localStorage: options.safari?.localStorage ?? safariLocalStorageReader({ home, sqlite: options.sqlite }),
  };

  const cookies: BrowserCookieReader = {
    async read(query, lookup) {
      const candidates: CookieCandidate[] = [];
      const notes: LookupNote[] = [];
      for (const id of new Set(query.browsers)) {
        lookup.signal?.throwIfAborted();
        const chromiumFamily = chromiumBrowser(id);
        const geckoFamily = geckoBrowser(id);
        let found: { candidates: CookieCandidate[]; notes: LookupNote[] };
        try {
          if (chromiumFamily) found = await chromium.read(chromiumFamily, query, lookup);
          else if (geckoFamily) found = await gecko.read(geckoFamily, query, lookup);
          else if (id === "safari") found = await readSafari(options.platform, safari.cookies, query, lookup);
          else found = { candidates: [], notes: [note(id, "error", `unknown browser "${id}"`)] };
        } catch (error) {
          if (lookup.signal?.aborted) throw error;
          found = { candidates: [], notes: [note(id, "error", `could not be read: ${(error as Error).message}`)] };
        }
        candidates.push(...found.candidates);
        notes.push(...found.notes);
      }
      return { candidates, notes };
    },
  };

  const localStorage: LocalStorageReader = {
    async read(query, lookup) {
      const entries: LocalStorageEntry[] = [];
      const notes: LookupNote[] = [];
      for (const id of new Set(query.browsers)) {
        lookup.signal?.throwIfAborted();
        const browser = chromiumBrowser(id);
        if (id === "safari") {
          if (options.platform !== "darwin") notes.push(note(id, "not-installed", "Safari runs on macOS only"));
          else {
            const found = await safari.localStorage.read({ ...query, browsers: [id] }, lookup);
            entries.push(...found.entries);
            notes.push(...found.notes);
          }
          continue;
        }
        if (!browser) {
          notes.push(note(id, "skipped", `Local Storage of "${id}" is not read`));
          continue;
        }
        const reader = options.chromiumLocalStorage;
        if (!reader) {
          notes.push(note(id, "skipped", "reading Chromium Local Storage is not available yet"));
          continue;
        }
        let profiles = 0;
        for (const root of chromiumRoots(browser, options.platform, options.env)) {
          if (!exists(root)) continue;
          for (const profile of await chromiumProfileDirs(root)) {
            // the root itself is a profile only for browsers that keep one there (Helium)
            if (profile.dir === "." && !exists(join(profile.path, "Local Storage"))) continue;
            const where = { browser: id, profile: profile.label };
            try {
              const items = await reader(profile.path, {
                origins: query.origins,
                ...(query.keys ? { keys: query.keys } : {}),
                ...(lookup.signal ? { signal: lookup.signal } : {}),
              });
              profiles++;
              entries.push(...items.map(({ origin, key, value }) => ({ ...where, origin, key, value })));
              notes.push({
                ...where,
                outcome: items.length > 0 ? "found" : "nothing",
                detail: `${items.length} Local Storage item(s)`,
                cookieNames: items.map((i) => i.key),
              });
            } catch (error) {
              if (lookup.signal?.aborted) throw error;
              notes.push({ ...where, outcome: "error", detail: `Local Storage could not be read: ${(error as Error).message}` });
            }
          }
        }
        if (profiles === 0) notes.push(note(id, "not-installed", `${browser.name} has no profile data here`));
      }
      return { entries, notes };
    },
  };

  /** Another program's Keychain item (macOS), behind the same gate as the browsers' keys, keyed by its service. */
  async function appSecret(item: { service: string; account?: string }): Promise<string | null> {
    if (options.platform !== "darwin") return null;
    const read = options.appKeychain ?? ((wanted: typeof item) => keychainPassword(options.processes, options.env, wanted));
    const answer = await gate.password(`keychain:${item.service}`, () => read(item));
    return "password" in answer ? answer.password : null;
  }

  return {
    cookies,
    localStorage,
    appSecret,
    secrets: options.secrets,
    interactive: options.interactive,
    appState: appStateReader(options.sqlite),
  };
}

function readSafari(
  platform: NodeJS.Platform,
  reader: BrowserCookieReader,
  query: Parameters<BrowserCookieReader["read"]>[0],
  lookup: Parameters<BrowserCookieReader["read"]>[1],
): ReturnType<BrowserCookieReader["read"]> {
  if (platform !== "darwin")
    return Promise.resolve({ candidates: [], notes: [note("safari", "not-installed", "Safari runs on macOS only")] });
  return reader.read({ ...query, browsers: ["safari"] }, lookup);
}
