import { FileTextStore } from "../adapters/cache/file-text-store.js";
import { resolveCacheDir, resolveConfigPath } from "../adapters/config/config-path.js";
import { JsonConfigStore } from "../adapters/config/json-config-store.js";
import { parseOriginMap } from "../adapters/http/origin-map.js";
import { NodeProcessRunner } from "../adapters/process/node-process-runner.js";
import { chooseSecretStore } from "../adapters/secrets/choose-secret-store.js";
import { BetterSqlite } from "../adapters/sqlite/better-sqlite3.js";
import { systemClock } from "../adapters/system-clock.js";
import type { Clock } from "../ports/clock.js";
import type { Environment } from "../ports/environment.js";
import type { HttpTransport } from "../ports/http-client.js";
import { composeCore, type BrowserAdapters, type Core } from "./compose-core.js";
import { lazyGotTransport } from "./lazy-transport.js";
import { writeCliRemedies } from "./remedy-text.js";

export interface NodeCoreOptions {
  env?: Environment;
  configPath?: string;
  cacheDir?: string;
  clock?: Clock;
  transport?: HttpTransport;
  /** A person may answer an OS prompt for a browser's key (the CLI in a terminal); never for the library. */
  interactive?: boolean;
  /** Replaces the browser adapters (tests: a fixture home's browsers with a fake secret store). */
  browsers?: BrowserAdapters;
}

/** The core on Node adapters (config file, cache files, got), shared by the library and the CLI. Does no I/O until asked. */
export function createNodeCore(options: NodeCoreOptions = {}): Core {
  const env = options.env ?? process.env;
  const originMap = parseOriginMap(env.QUOTABAR_ORIGIN_MAP);
  const configPath = options.configPath ?? resolveConfigPath(env);
  return composeCore({
    env,
    clock: options.clock ?? systemClock,
    config: new JsonConfigStore(configPath),
    store: new FileTextStore(options.cacheDir ?? resolveCacheDir(env)),
    transport: options.transport ?? lazyGotTransport(originMap), // got loads on the first request
    processes: new NodeProcessRunner(env.PATH),
    originMap,
    writeRemedies: writeCliRemedies,
    // better-sqlite3, classic-level and the OS keyring load on first use only
    browsers: options.browsers ?? {
      sqlite: new BetterSqlite(),
      // QUOTABAR_SECRET_STORE from the core's environment, else the process's (which then holds for every core of it)
      secrets: chooseSecretStore(
        { ...env, QUOTABAR_SECRET_STORE: env.QUOTABAR_SECRET_STORE ?? process.env.QUOTABAR_SECRET_STORE },
        configPath,
      ),
      interactive: options.interactive ?? false,
      chromiumLocalStorage: async (profileDir, query) =>
        (await import("../adapters/browser/leveldb/local-storage-classic-level.js")).readChromiumLocalStorage(profileDir, query),
    },
  });
}
