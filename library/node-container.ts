import "reflect-metadata";
import { container as rootContainer, type DependencyContainer } from "tsyringe";
import { FileSnapshotCache } from "../adapters/cache/file-snapshot-cache.js";
import { resolveCacheDir, resolveConfigPath } from "../adapters/config/config-path.js";
import { JsonConfigStore } from "../adapters/config/json-config-store.js";
import { GotHttpClient } from "../adapters/http/got-http-client.js";
import { parseOriginMap } from "../adapters/http/origin-map.js";
import { createProviderRegistry } from "../adapters/provider-registry.js";
import { noStatus } from "../adapters/status/no-status.js";
import { systemClock } from "../adapters/system-clock.js";
import { UsageService } from "../domain/usage-service.js";
import type { Clock } from "../ports/clock.js";
import type { Environment } from "../ports/environment.js";
import type { HttpClient } from "../ports/http-client.js";
import { TOKENS } from "../ports/tokens.js";

export interface NodeContainerOptions {
  env?: Environment;
  configPath?: string;
  cacheDir?: string;
  clock?: Clock;
  http?: HttpClient;
}

/**
 * The composition root shared by the library and the CLI: Node adapters under port tokens, in a
 * child container so two instances never share state. Nothing here does I/O until asked.
 */
export function createNodeContainer(options: NodeContainerOptions = {}): DependencyContainer {
  const env = options.env ?? process.env;
  const c = rootContainer.createChildContainer();
  const http = options.http ?? new GotHttpClient(parseOriginMap(env.QUOTABAR_ORIGIN_MAP));
  c.register(TOKENS.Environment, { useValue: env });
  c.register(TOKENS.Clock, { useValue: options.clock ?? systemClock });
  c.register(TOKENS.ConfigStore, { useValue: new JsonConfigStore(options.configPath ?? resolveConfigPath(env)) });
  c.register(TOKENS.SnapshotCache, { useValue: new FileSnapshotCache(options.cacheDir ?? resolveCacheDir(env)) });
  c.register(TOKENS.HttpClient, { useValue: http });
  c.register(TOKENS.ProviderRegistry, { useValue: createProviderRegistry({ http }) });
  c.register(TOKENS.StatusService, { useValue: noStatus });
  c.register(UsageService, { useClass: UsageService });
  c.register(TOKENS.UsageService, { useFactory: (r) => r.resolve(UsageService) });
  return c;
}
