import "reflect-metadata";
import { container as rootContainer, Lifecycle, type DependencyContainer } from "tsyringe";
import { homeOf } from "../../adapters/config/config-path.js";
import { JsonConfigStore } from "../../adapters/config/json-config-store.js";
import { CopilotDeviceFlow } from "../../adapters/http/copilot-device-flow.js";
import { GotHttpClient } from "../../adapters/http/got-http-client.js";
import { mapUrl, parseOriginMap } from "../../adapters/http/origin-map.js";
import { createStatusFeed } from "../../adapters/http/status-feeds.js";
import { createProviderRegistry } from "../../adapters/provider-registry.js";
import { systemClock } from "../../adapters/system-clock.js";
import { StatusService } from "../../domain/status-service.js";
import { UsageService } from "../../domain/usage-service.js";
import type { Clock } from "../../ports/clock.js";
import type { ConfigStore } from "../../ports/config-store.js";
import type { DeviceFlow } from "../../ports/device-flow.js";
import type { Environment } from "../../ports/environment.js";
import type { HttpClient } from "../../ports/http-client.js";
import type { StatusReader } from "../../ports/status-feed.js";
import { TOKENS } from "../../ports/tokens.js";
import { StoredSnapshotCache } from "../../adapters/cache/stored-snapshot-cache.js";
import { StoredStatusCache } from "../../adapters/cache/stored-status-cache.js";
import { CacheTextStore } from "./adapters/cache-text-store.js";
import { KeyValueConfigStore } from "./adapters/key-value-config-store.js";
import type { AsyncKeyValueStore, SyncKeyValueStore } from "./adapters/key-value.js";
import { PreferenceConfigStore } from "./adapters/preference-config-store.js";
import { sharedConfigPath, type QuotabarPreferences } from "./preferences.js";

/** What the Raycast runtime hands the composition root; tests and the preview pass doubles. */
export interface RaycastAdapters {
  preferences: QuotabarPreferences;
  /** Raycast `LocalStorage` (encrypted): the config when no CLI config file is shared. */
  localStorage: AsyncKeyValueStore;
  /** Raycast `Cache`: last good snapshots. */
  cache: SyncKeyValueStore;
  env: Environment;
  clock?: Clock;
  http?: HttpClient;
  /** Replaces the status-page service (polled feeds, cached in Raycast's Cache). */
  status?: StatusReader;
}

/** The shared CLI config file when the preference names one, else the config in LocalStorage; preferences on top. */
export function createRaycastConfigStore(adapters: Pick<RaycastAdapters, "preferences" | "localStorage" | "env">): ConfigStore {
  const file = sharedConfigPath(adapters.preferences, homeOf(adapters.env));
  const stored = file ? new JsonConfigStore(file) : new KeyValueConfigStore(adapters.localStorage);
  return new PreferenceConfigStore(stored, adapters.preferences);
}

/**
 * The Raycast composition root: the same ports as `library/node-container.ts`, wired to adapters
 * that run inside Raycast (Node 22, no native addons): Raycast storage instead of files and the OS
 * keyring (config, snapshots, status polls), got for HTTP and the status feeds. Nothing imported from here may reach a `.node` binary (a test walks the graph).
 */
export function createRaycastContainer(adapters: RaycastAdapters): DependencyContainer {
  const c = rootContainer.createChildContainer();
  const originMap = parseOriginMap(adapters.env.QUOTABAR_ORIGIN_MAP);
  const http = adapters.http ?? new GotHttpClient(originMap);
  c.register(TOKENS.Environment, { useValue: adapters.env });
  c.register(TOKENS.Clock, { useValue: adapters.clock ?? systemClock });
  c.register(TOKENS.ConfigStore, { useValue: createRaycastConfigStore(adapters) });
  const cache = new CacheTextStore(adapters.cache);
  c.register(TOKENS.SnapshotCache, { useValue: new StoredSnapshotCache(cache) });
  c.register(TOKENS.HttpClient, { useValue: http });
  c.register(TOKENS.ProviderRegistry, { useValue: createProviderRegistry({ http }) });
  c.register(TOKENS.StatusFeed, { useValue: createStatusFeed(http) });
  c.register(TOKENS.StatusCache, { useValue: new StoredStatusCache(cache, (url) => mapUrl(new URL(url), originMap).href) });
  if (adapters.status) c.register(TOKENS.StatusService, { useValue: adapters.status });
  else {
    c.register(StatusService, { useClass: StatusService }, { lifecycle: Lifecycle.ContainerScoped });
    c.register(TOKENS.StatusService, { useToken: StatusService });
  }
  c.register(UsageService, { useClass: UsageService });
  c.register(TOKENS.UsageService, { useFactory: (r) => r.resolve(UsageService) });
  return c;
}

/** The Copilot device flow (ports/device-flow.ts) over the same HTTP client and origin map as the usage fetch. */
export function createCopilotDeviceFlow(adapters: Pick<RaycastAdapters, "env" | "http" | "clock">): DeviceFlow {
  const http = adapters.http ?? new GotHttpClient(parseOriginMap(adapters.env.QUOTABAR_ORIGIN_MAP));
  return new CopilotDeviceFlow({ http, ...(adapters.clock ? { clock: adapters.clock } : {}) });
}
