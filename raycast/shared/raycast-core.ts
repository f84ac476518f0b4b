import { readChromiumLocalStorage } from "../../adapters/browser/leveldb/local-storage-pure.js";
import { homeOf } from "../../adapters/config/config-path.js";
import { JsonConfigStore } from "../../adapters/config/json-config-store.js";
import { GotHttpTransport } from "../../adapters/http/got-http-transport.js";
import { parseOriginMap } from "../../adapters/http/origin-map.js";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { KeyValueSecretStore } from "../../adapters/secrets/key-value-secret-store.js";
import { NodeSqlite } from "../../adapters/sqlite/node-sqlite.js";
import { systemClock } from "../../adapters/system-clock.js";
import { composeCore, type BrowserAdapters, type Core } from "../../library/compose-core.js";
import type { Clock } from "../../ports/clock.js";
import type { ConfigStore } from "../../ports/config-store.js";
import type { Environment } from "../../ports/environment.js";
import type { HttpTransport } from "../../ports/http-client.js";
import type { ProcessRunner } from "../../ports/process-runner.js";
import type { StatusReader } from "../../ports/status-feed.js";
import { CacheTextStore } from "./adapters/cache-text-store.js";
import { KeyValueConfigStore } from "./adapters/key-value-config-store.js";
import type { AsyncKeyValueStore, SyncKeyValueStore } from "./adapters/key-value.js";
import { PreferenceConfigStore } from "./adapters/preference-config-store.js";
import { sharedConfigPath, type QuotabarPreferences } from "./preferences.js";
import { raycastRemedyWriter } from "./remedy-text.js";

/** What the Raycast runtime hands the composition root; tests and the preview pass doubles. */
export interface RaycastAdapters {
  preferences: QuotabarPreferences;
  /** Raycast `LocalStorage` (encrypted): the config when no CLI config file is shared. */
  localStorage: AsyncKeyValueStore;
  /** Raycast `Cache`: last good snapshots and status polls. */
  cache: SyncKeyValueStore;
  env: Environment;
  clock?: Clock;
  transport?: HttpTransport;
  processes?: ProcessRunner;
  /** Replaces the polled status pages in usage documents. */
  status?: StatusReader;
  /** The user opened the command (it may prompt for a browser's key); background refreshes never do. Default: false. */
  interactive?: boolean;
  /** Replaces the browser adapters (tests, the preview). */
  browsers?: BrowserAdapters;
}

/** The shared CLI config file when the preference names one, else the config in LocalStorage; preferences on top. */
export function createRaycastConfigStore(adapters: Pick<RaycastAdapters, "preferences" | "localStorage" | "env">): ConfigStore {
  const file = sharedConfigPath(adapters.preferences, homeOf(adapters.env));
  const stored = file ? new JsonConfigStore(file) : new KeyValueConfigStore(adapters.localStorage);
  return new PreferenceConfigStore(stored, adapters.preferences);
}

/**
 * Raycast starts extensions with the system PATH only (/usr/bin:/bin:/usr/sbin:/sbin); vendor CLIs
 * (auggie, kiro-cli, kilo, ...) usually live where Homebrew or the user installed them.
 */
export function raycastPath(env: Environment): string {
  const dirs = (env.PATH ?? "/usr/bin:/bin:/usr/sbin:/sbin").split(":").filter(Boolean);
  for (const extra of ["/opt/homebrew/bin", "/usr/local/bin", `${homeOf(env)}/.local/bin`]) if (!dirs.includes(extra)) dirs.push(extra);
  return dirs.join(":");
}

/**
 * The Raycast composition root: `composeCore`, as the Node root uses it, on adapters that run inside
 * Raycast (Node 22, no native addons): the preferences over the shared CLI config file or
 * LocalStorage, Raycast's Cache behind the TextStore port, got for HTTP with the origin map, vendor
 * CLIs run on a PATH that includes Homebrew's, browsers read through node:sqlite with cookie headers
 * cached in LocalStorage (prompting only when the user opened the command), and remedies in Raycast's words. Nothing imported from here may reach a `.node` binary (a test walks
 * the graph). Does no I/O until asked.
 */
export function createRaycastCore(adapters: RaycastAdapters): Core {
  const originMap = parseOriginMap(adapters.env.QUOTABAR_ORIGIN_MAP);
  return composeCore({
    env: adapters.env,
    clock: adapters.clock ?? systemClock,
    config: createRaycastConfigStore(adapters),
    store: new CacheTextStore(adapters.cache),
    transport: adapters.transport ?? new GotHttpTransport(originMap),
    processes: adapters.processes ?? new NodeProcessRunner(raycastPath(adapters.env)),
    originMap,
    writeRemedies: raycastRemedyWriter({ sharedConfigFile: sharedConfigPath(adapters.preferences, homeOf(adapters.env)) !== null }),
    ...(adapters.status ? { status: adapters.status } : {}),
    // node:sqlite (no native addon), cookie headers cached in the encrypted LocalStorage
    browsers: adapters.browsers ?? {
      sqlite: new NodeSqlite(),
      secrets: new KeyValueSecretStore(adapters.localStorage),
      interactive: adapters.interactive ?? false,
      chromiumLocalStorage: readChromiumLocalStorage,
    },
  });
}
