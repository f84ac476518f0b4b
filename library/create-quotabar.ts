import type { ProviderDescriptor } from "../domain/descriptor.js";
import type { ProviderListing } from "../domain/usage-service.js";
import type { UsageDocument } from "../domain/usage-document.js";
import type { Environment } from "../ports/environment.js";
import { PROVIDERS } from "../providers/registry.js";
import type { Core } from "./compose-core.js";

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
}

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
    providers: () => PROVIDERS.map((m) => m.descriptor),
    listProviders: async () => (await loadCore()).usage.listProviders(),
  };
}
