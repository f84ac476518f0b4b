import { FileTextStore } from "../adapters/cache/file-text-store.js";
import { resolveCacheDir, resolveConfigPath } from "../adapters/config/config-path.js";
import { JsonConfigStore } from "../adapters/config/json-config-store.js";
import { GotHttpTransport } from "../adapters/http/got-http-transport.js";
import { parseOriginMap } from "../adapters/http/origin-map.js";
import { NodeProcessRunner } from "../adapters/process/node-process-runner.js";
import { systemClock } from "../adapters/system-clock.js";
import type { Clock } from "../ports/clock.js";
import type { Environment } from "../ports/environment.js";
import type { HttpTransport } from "../ports/http-client.js";
import { composeCore, type Core } from "./compose-core.js";
import { writeCliRemedies } from "./remedy-text.js";

export interface NodeCoreOptions {
  env?: Environment;
  configPath?: string;
  cacheDir?: string;
  clock?: Clock;
  transport?: HttpTransport;
}

/** The core on Node adapters (config file, cache files, got), shared by the library and the CLI. Does no I/O until asked. */
export function createNodeCore(options: NodeCoreOptions = {}): Core {
  const env = options.env ?? process.env;
  const originMap = parseOriginMap(env.QUOTABAR_ORIGIN_MAP);
  return composeCore({
    env,
    clock: options.clock ?? systemClock,
    config: new JsonConfigStore(options.configPath ?? resolveConfigPath(env)),
    store: new FileTextStore(options.cacheDir ?? resolveCacheDir(env)),
    transport: options.transport ?? new GotHttpTransport(originMap),
    processes: new NodeProcessRunner(env.PATH),
    originMap,
    writeRemedies: writeCliRemedies,
  });
}
