import "reflect-metadata";
import { container as rootContainer, type DependencyContainer } from "tsyringe";
import { homeOf } from "../../adapters/config/config-path.js";
import { JsonConfigStore } from "../../adapters/config/json-config-store.js";
import { GotHttpClient } from "../../adapters/http/got-http-client.js";
import { parseOriginMap } from "../../adapters/http/origin-map.js";
import { createProviderRegistry } from "../../adapters/provider-registry.js";
import { noStatus } from "../../adapters/status/no-status.js";
import { systemClock } from "../../adapters/system-clock.js";
import { QuotabarError } from "../../domain/errors.js";
import { UsageService } from "../../domain/usage-service.js";
import type { Clock } from "../../ports/clock.js";
import type { ConfigStore } from "../../ports/config-store.js";
import type { DeviceFlow } from "../../ports/device-flow.js";
import type { Environment } from "../../ports/environment.js";
import type { HttpClient } from "../../ports/http-client.js";
import type { StatusReader } from "../../ports/status-feed.js";
import { TOKENS } from "../../ports/tokens.js";
import { CacheSnapshotCache } from "./adapters/cache-snapshot-cache.js";
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
 * keyring, got for HTTP. Nothing imported from here may reach a `.node` binary (a test walks the graph).
 */
export function createRaycastContainer(adapters: RaycastAdapters): DependencyContainer {
  const c = rootContainer.createChildContainer();
  const http = adapters.http ?? new GotHttpClient(parseOriginMap(adapters.env.QUOTABAR_ORIGIN_MAP));
  c.register(TOKENS.Environment, { useValue: adapters.env });
  c.register(TOKENS.Clock, { useValue: adapters.clock ?? systemClock });
  c.register(TOKENS.ConfigStore, { useValue: createRaycastConfigStore(adapters) });
  c.register(TOKENS.SnapshotCache, { useValue: new CacheSnapshotCache(adapters.cache) });
  c.register(TOKENS.HttpClient, { useValue: http });
  c.register(TOKENS.ProviderRegistry, { useValue: createProviderRegistry({ http }) });
  c.register(TOKENS.StatusService, { useValue: adapters.status ?? noStatus });
  c.register(UsageService, { useClass: UsageService });
  return c;
}

/** The Copilot device flow (ports/device-flow.ts) over the same HTTP client and origin map as the usage fetch. */
export function createCopilotDeviceFlow(adapters: Pick<RaycastAdapters, "env" | "http">): DeviceFlow {
  void (adapters.http ?? new GotHttpClient(parseOriginMap(adapters.env.QUOTABAR_ORIGIN_MAP)));
  const unavailable = () =>
    Promise.reject(new QuotabarError("unsupported_platform", "The GitHub Copilot sign-in is not part of this build yet"));
  return { start: unavailable, poll: unavailable };
}
