import { DESCRIPTORS } from "../domain/providers/catalog.js";
import type { ProviderDescriptor } from "../domain/providers/descriptor.js";
import type { UsageDocument } from "../domain/usage-document.js";
import { UsageService } from "../domain/usage-service.js";
import type { Environment } from "../ports/environment.js";
import { createNodeContainer } from "./node-container.js";

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
}

export function createQuotabar(options: QuotabarOptions = {}): Quotabar {
  let service: UsageService | undefined;
  const usageService = () =>
    (service ??= createNodeContainer({
      ...(options.env ? { env: options.env } : {}),
      ...(options.configPath ? { configPath: options.configPath } : {}),
      ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
    }).resolve(UsageService));
  return {
    usage: (request = {}) =>
      usageService().usage({
        ...request,
        ...(request.timeoutMs === undefined && options.fetchTimeoutMs !== undefined ? { timeoutMs: options.fetchTimeoutMs } : {}),
      }),
    providers: () => DESCRIPTORS,
  };
}
