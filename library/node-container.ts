import "reflect-metadata";
import { Lifecycle, container as rootContainer, type DependencyContainer } from "tsyringe";
import { FileTextStore } from "../adapters/cache/file-text-store.js";
import { StoredSnapshotCache } from "../adapters/cache/stored-snapshot-cache.js";
import { StoredStatusCache } from "../adapters/cache/stored-status-cache.js";
import { resolveCacheDir, resolveConfigPath } from "../adapters/config/config-path.js";
import { JsonConfigStore } from "../adapters/config/json-config-store.js";
import { GotHttpClient } from "../adapters/http/got-http-client.js";
import { mapUrl, parseOriginMap } from "../adapters/http/origin-map.js";
import { createProviderRegistry } from "../adapters/provider-registry.js";
import { createStatusFeed } from "../adapters/http/status-feeds.js";
import { StatusService } from "../domain/status-service.js";
import { systemClock } from "../adapters/system-clock.js";
import { NodeProcessRunner } from "../adapters/process/node-process-runner.js";
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
  const originMap = parseOriginMap(env.QUOTABAR_ORIGIN_MAP);
  const http = options.http ?? new GotHttpClient(originMap);
  const cacheDir = options.cacheDir ?? resolveCacheDir(env);
  c.register(TOKENS.Environment, { useValue: env });
  c.register(TOKENS.Clock, { useValue: options.clock ?? systemClock });
  c.register(TOKENS.ConfigStore, { useValue: new JsonConfigStore(options.configPath ?? resolveConfigPath(env)) });
  const cache = new FileTextStore(cacheDir);
  c.register(TOKENS.SnapshotCache, { useValue: new StoredSnapshotCache(cache) });
  c.register(TOKENS.HttpClient, { useValue: http });
  c.register(TOKENS.ProcessRunner, { useValue: new NodeProcessRunner(env.PATH) });
  c.register(TOKENS.ProviderRegistry, { useValue: createProviderRegistry({ http }) });
  c.register(TOKENS.StatusFeed, { useValue: createStatusFeed(http) });
  c.register(TOKENS.StatusCache, { useValue: new StoredStatusCache(cache, (url) => mapUrl(new URL(url), originMap).href) });
  c.register(StatusService, { useClass: StatusService }, { lifecycle: Lifecycle.ContainerScoped });
  c.register(TOKENS.StatusService, { useToken: StatusService });
  c.register(UsageService, { useClass: UsageService });
  c.register(TOKENS.UsageService, { useFactory: (r) => r.resolve(UsageService) });
  return c;
}
