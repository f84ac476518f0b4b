/**
 * What providers may ask of the user's browsers and the OS secret store. Adapters (adapters/browser/,
 * adapters/secrets/) implement these; providers reach them only through the kit. No value read here
 * is ever printed, logged or put in a child process's arguments.
 */

/** One cookie as a browser stored it (value decrypted). */
export interface BrowserCookie {
  name: string;
  value: string;
  /** As stored: ".kimi.com" (a domain cookie) or "www.kimi.com" (host-only). */
  domain: string;
  hostOnly: boolean;
  path: string;
  /** Absolute UTC; null for a session cookie. */
  expiresAt: string | null;
  secure: boolean;
  /** When the browser last wrote it (absolute UTC), when the store says: the freshest duplicate wins. */
  updatedAt?: string | null;
}

/** Which cookies a provider wants. */
export interface CookieQuery {
  /** Hosts the requests go to ("www.kimi.com", "app.factory.ai"): a cookie is kept when it would be sent there. */
  hosts: readonly string[];
  /** Only these names (default: every cookie of those hosts). */
  names?: readonly string[];
  /** Browser ids in the order to try ("chrome", "arc", "safari", "firefox", ...). */
  browsers: readonly string[];
}

/** The cookies of one browser profile that match a query (freshest duplicate wins, expired ones dropped). */
export interface CookieCandidate {
  browser: string;
  profile: string;
  cookies: BrowserCookie[];
}

/** What one look at one browser (profile) found, for `quotabar cookies <id>`: names only, never values. */
export interface LookupNote {
  browser: string;
  profile?: string;
  /** "chosen": the candidate (or the cached header, browser "cache") a credential source went with. */
  /** `not-installed`: no data of the browser here at all; `no-profile`: its folder is here, without a profile to read. */
  outcome: "found" | "nothing" | "not-installed" | "no-profile" | "skipped" | "error" | "chosen";
  /** Why, in a sentence ("no cookie for kimi.com", "Keychain access denied; cooling down until 14:05"). */
  detail: string;
  cookieNames?: string[];
}

export interface LookupOptions {
  /** A person is waiting and may answer an OS prompt (never in a background refresh). */
  interactive: boolean;
  signal?: AbortSignal;
}

export interface BrowserCookieReader {
  read(query: CookieQuery, options: LookupOptions): Promise<{ candidates: CookieCandidate[]; notes: LookupNote[] }>;
}

/** A Local Storage item of a site, as a browser stored it. */
export interface LocalStorageEntry {
  browser: string;
  profile: string;
  origin: string;
  key: string;
  value: string;
}

export interface LocalStorageQuery {
  /** Origins ("https://app.factory.ai"). */
  origins: readonly string[];
  /** Only these keys (default: all of those origins). */
  keys?: readonly string[];
  browsers: readonly string[];
}

export interface LocalStorageReader {
  read(query: LocalStorageQuery, options: LookupOptions): Promise<{ entries: LocalStorageEntry[]; notes: LookupNote[] }>;
}

/** The OS secret store (Keychain, Secret Service) or the app's (Raycast LocalStorage). */
export interface SecretStore {
  get(service: string, account: string): Promise<string | null>;
  set(service: string, account: string, secret: string): Promise<void>;
  delete(service: string, account: string): Promise<boolean>;
}

/**
 * Another app's VS Code-style global state: an `ItemTable(key, value)` in a SQLite file (Cursor keeps
 * its sign-in in `state.vscdb` so). It is read from a private copy: the app's file is never written.
 */
export interface AppStateReader {
  /**
   * The text of each of `keys` the table holds (keys it lacks are left out); null when there is no
   * such file. A file that is not a regular file, too large, or not such a database throws, naming the
   * file, never its content.
   */
  read(path: string, keys: readonly string[]): Promise<Record<string, string> | null>;
}

/** Everything browser-side a credential source may use, handed over in the credential context. */
export interface BrowserAccess {
  cookies: BrowserCookieReader;
  localStorage: LocalStorageReader;
  /** Where working cookie headers are cached, so browsers are not decrypted on every refresh. */
  secrets: SecretStore;
  /** Local state of an Electron app (its sign-in); absent where no SQLite engine is set up. */
  appState?: AppStateReader;
  /** Whether this run may prompt (a terminal or a user-opened Raycast command). */
  interactive: boolean;
  /**
   * Another program's generic password in the macOS Keychain (Claude Code's sign-in), read through
   * the same gate as the browsers' keys: never in a run nobody watches, never with the switch off,
   * not again for a while after a denial. Null when absent, not asked, or not on macOS. Read only.
   */
  appSecret?(item: { service: string; account?: string }): Promise<string | null>;
  /**
   * Set by `quotabar cookies <id>`: credential sources skip the cached headers (and write none),
   * look at the browsers, and tell this what they looked at and why they chose or skipped.
   */
  explain?(note: LookupNote): void;
}
