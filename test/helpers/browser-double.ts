import { FileTextStore } from "../../adapters/cache/file-text-store.js";
import { StoredSnapshotCache } from "../../adapters/cache/stored-snapshot-cache.js";
import { resolveCacheDir, resolveConfigPath } from "../../adapters/config/config-path.js";
import { JsonConfigStore } from "../../adapters/config/json-config-store.js";
import { parseOriginMap } from "../../adapters/http/origin-map.js";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { MemorySecretStore } from "../../adapters/secrets/memory-secret-store.js";
import { UsageService } from "../../domain/usage-service.js";
import { lazyGotTransport } from "../../library/lazy-transport.js";
import { writeCliRemedies } from "../../library/remedy-text.js";
import type {
  BrowserAccess,
  BrowserCookie,
  CookieCandidate,
  CookieQuery,
  LocalStorageEntry,
  LocalStorageQuery,
} from "../../ports/browser-credentials.js";
import { PROVIDER_CATALOG } from "../../providers/registry.js";
import { StoredKeptValues } from "../../adapters/cache/stored-kept-values.js";

/**
 * Browsers as data, for a provider's tests: profiles with cookies (and Local Storage items), read
 * through the BrowserAccess port the credential sources use, every query recorded, the cookie cache
 * in memory. The real readers are tested against real browsers under test/browser/.
 */
export interface BrowserDouble extends BrowserAccess {
  secrets: MemorySecretStore;
  cookieQueries: CookieQuery[];
  storageQueries: LocalStorageQuery[];
}

/** A persistent cookie as a browser keeps it (a day left), host-only unless the domain starts with a dot. */
export function storedCookie(name: string, value: string, domain: string): BrowserCookie {
  const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
  return { name, value, domain, hostOnly: !domain.startsWith("."), path: "/", expiresAt, secure: true };
}

export function browserDouble(profiles: CookieCandidate[], storage: LocalStorageEntry[] = []): BrowserDouble {
  const cookieQueries: CookieQuery[] = [];
  const storageQueries: LocalStorageQuery[] = [];
  const installed = (browser: string) => profiles.some((p) => p.browser === browser) || storage.some((e) => e.browser === browser);
  return {
    cookieQueries,
    storageQueries,
    secrets: new MemorySecretStore(),
    interactive: false,
    cookies: {
      async read(query) {
        cookieQueries.push(query);
        const candidates = query.browsers.flatMap((browser) =>
          profiles
            .filter((p) => p.browser === browser)
            .map((p) => ({ ...p, cookies: p.cookies.filter((c) => !query.names || query.names.includes(c.name)) }))
            .filter((p) => p.cookies.length > 0),
        );
        const notes = query.browsers.map((browser) =>
          installed(browser)
            ? { browser, outcome: "found" as const, detail: "profiles read" }
            : { browser, outcome: "not-installed" as const, detail: `${browser} has no profile data here` },
        );
        return { candidates, notes };
      },
    },
    localStorage: {
      async read(query) {
        storageQueries.push(query);
        const entries = storage.filter((e) => query.browsers.includes(e.browser) && query.origins.includes(e.origin));
        return { entries, notes: [] };
      },
    },
  };
}

/** The usage service of a test HOME on the simulator (its env), whose browsers are `access`. */
export function usageWithBrowsers(env: Record<string, string | undefined>, access: BrowserAccess): UsageService {
  return new UsageService({
    catalog: PROVIDER_CATALOG,
    config: new JsonConfigStore(resolveConfigPath(env)),
    cache: new StoredSnapshotCache(new FileTextStore(resolveCacheDir(env)), env.QUOTABAR_ORIGIN_MAP ?? ""),
    clock: { now: () => new Date() },
    env,
    status: { statusFor: async () => null },
    transport: lazyGotTransport(parseOriginMap(env.QUOTABAR_ORIGIN_MAP)),
    processes: new NodeProcessRunner(env.PATH),
    browsers: access,
    writeRemedies: writeCliRemedies,
    kept: new StoredKeptValues(
      new FileTextStore(resolveCacheDir(env)),
      access.secrets,
      { now: () => new Date() },
      env.QUOTABAR_ORIGIN_MAP ?? "",
    ),
  });
}
