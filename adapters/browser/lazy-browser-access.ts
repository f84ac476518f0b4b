import type { BrowserAccess, LookupNote, SecretStore } from "../../ports/browser-credentials.js";
import { MemorySecretStore } from "../secrets/memory-secret-store.js";
import type { BrowserAccessOptions } from "./browser-access.js";

/**
 * Browser access whose readers (the Chromium, Firefox and Safari formats, SQLite, the secret gate)
 * load on the first lookup: most refreshes make none (a key, a pasted cookie, a cached header), so
 * they never pay for them. Built once, so a run still has one gate.
 */
export function lazyBrowserAccess(options: BrowserAccessOptions): BrowserAccess {
  let real: Promise<BrowserAccess> | undefined;
  const load = () => (real ??= import("./browser-access.js").then((m) => m.createBrowserAccess(options)));
  return {
    cookies: { read: async (query, lookup) => (await load()).cookies.read(query, lookup) },
    localStorage: { read: async (query, lookup) => (await load()).localStorage.read(query, lookup) },
    // an app's state database needs SQLite alone, not the browsers' readers
    appState: { read: async (path, keys) => (await import("./app-state.js")).readAppState(options.sqlite, path, keys) },
    appSecret: async (item) => (options.platform === "darwin" ? ((await (await load()).appSecret?.(item)) ?? null) : null),
    secrets: options.secrets,
    interactive: options.interactive,
  };
}

/** A BrowserAccess that reads nothing: for compositions without browser adapters (tests, embedders). */
export function noBrowserAccess(secrets: SecretStore = new MemorySecretStore()): BrowserAccess {
  const none = (browsers: readonly string[]): LookupNote[] =>
    browsers.map((browser) => ({ browser, outcome: "skipped", detail: "browser access is not set up here" }));
  return {
    cookies: { read: async (query) => ({ candidates: [], notes: none(query.browsers) }) },
    localStorage: { read: async (query) => ({ entries: [], notes: none(query.browsers) }) },
    secrets,
    interactive: false,
  };
}
