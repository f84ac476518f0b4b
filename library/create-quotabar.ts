import type { ProviderDescriptor } from "../domain/descriptor.js";
import type { KeepaliveReport } from "../domain/session-keepalive.js";
import type { ProviderListing } from "../domain/usage-service.js";
import type { UsageDocument } from "../domain/usage-document.js";
import type { QuotabarEvent } from "../domain/usage-events.js";
import type { ProviderHistory } from "../ports/usage-history.js";
import type { Environment } from "../ports/environment.js";
import type { Core } from "./compose-core.js";
import { DESCRIPTORS } from "../providers/registry.js";

export interface QuotabarOptions {
  /** Config file path; default: $QUOTABAR_CONFIG, $XDG_CONFIG_HOME/quotabar/config.json, ~/.config/quotabar/config.json. */
  configPath?: string;
  /** Environment to read credentials and overrides from; default process.env. */
  env?: Environment;
  /** Per-provider time budget in ms; default: config timeoutSeconds, else 15 s. */
  fetchTimeoutMs?: number;
  /** Where the last good snapshots are kept; default $XDG_CACHE_HOME/quotabar or ~/.cache/quotabar. */
  cacheDir?: string;
}

export interface Quotabar {
  /** The usage document (contract section 3). Provider failures are data in it, never exceptions. */
  usage(request?: { providers?: readonly string[]; status?: boolean; source?: string; timeoutMs?: number }): Promise<UsageDocument>;
  /** Every provider: id, name, auth methods, links. */
  providers(): readonly ProviderDescriptor[];
  /** Every provider with whether its credentials are found here and whether it is enabled (no network). */
  listProviders(): Promise<ProviderListing[]>;
  /**
   * Refreshes now and then every `intervalMs`, and keeps web sessions alive (a check every 5
   * minutes), until the returned stop function is called; it resolves once the loop has ended.
   * Nothing runs, and no timer exists, before this is called.
   */
  watch(request: WatchRequest): () => Promise<void>;
  /**
   * The kept readings of each provider's meters (every fresh `usage()` adds one), oldest first, in
   * segments of one window each; providers without any are left out.
   */
  history(request?: { providers?: readonly string[]; since?: Date }): Promise<ProviderHistory[]>;
}

export interface WatchRequest {
  providers?: readonly string[];
  status?: boolean;
  source?: string;
  timeoutMs?: number;
  /** Between two refreshes; default 5 minutes, at least 10 seconds. */
  intervalMs?: number;
  /** Each refreshed document. A callback that throws ends the watch (through onError when given). */
  onUpdate(document: UsageDocument): void | Promise<void>;
  /** What each session keepalive check did (renewed, failed, gave up and why). */
  onKeepalive?(reports: readonly KeepaliveReport[]): void | Promise<void>;
  /**
   * Each refresh's events: a meter crossing a notify threshold, a run-out forecast, a new incident
   * (with `status: true`). Each is raised once per window, across restarts and processes sharing the
   * cache directory. Without it, no event is raised.
   */
  onEvents?(events: readonly QuotabarEvent[], document: UsageDocument): void | Promise<void>;
  /** A refresh that failed as a whole (an unreadable config file); the watch goes on. */
  onError?(error: unknown): void;
}

const DEFAULT_INTERVAL_MS = 5 * 60_000;
const MIN_INTERVAL_MS = 10_000;

export function createQuotabar(options: QuotabarOptions = {}): Quotabar {
  let core: Promise<Core> | undefined;
  // the core (HTTP client, adapters) loads on the first call that needs it, never on import
  const loadCore = () =>
    (core ??= import("./node-core.js").then(({ createNodeCore }) =>
      createNodeCore({
        ...(options.env ? { env: options.env } : {}),
        ...(options.configPath ? { configPath: options.configPath } : {}),
        ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
      }),
    ));
  return {
    usage: async (request = {}) =>
      (await loadCore()).usage.usage({
        ...request,
        ...(request.timeoutMs === undefined && options.fetchTimeoutMs !== undefined ? { timeoutMs: options.fetchTimeoutMs } : {}),
      }),
    providers: () => [...DESCRIPTORS],
    listProviders: async () => (await loadCore()).usage.listProviders(),
    history: async (request = {}) => (await loadCore()).history(request),
    watch({ onUpdate, onKeepalive, onEvents, onError, intervalMs = DEFAULT_INTERVAL_MS, ...request }) {
      const controller = new AbortController();
      const timeoutMs = request.timeoutMs ?? options.fetchTimeoutMs;
      const done = loadCore()
        .then((core) =>
          core.watch({
            intervalMs: Math.max(MIN_INTERVAL_MS, intervalMs),
            request: { ...request, ...(timeoutMs === undefined ? {} : { timeoutMs }) },
            signal: controller.signal,
            onDocument: onUpdate,
            ...(onKeepalive ? { onKeepalive } : {}),
            ...(onEvents ? { onEvents } : {}),
            ...(onError ? { onError } : {}),
          }),
        )
        .catch((error: unknown) => {
          if (!onError) throw error;
          onError(error);
        });
      return () => {
        controller.abort();
        return done;
      };
    },
  };
}
