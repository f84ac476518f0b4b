/** Which events `quotabar watch` tells (config `notify`, at the root and in a provider's entry, field by field). */
export interface NotifyConfig {
  /** Percents whose upward crossing is told, once per window. */
  thresholds?: number[];
  /** Tell when a run-out forecast first appears in a window. */
  runOut?: boolean;
  /** Tell when a status page opens a new incident. */
  incidents?: boolean;
  [field: string]: unknown;
}

/** One provider entry of the config file (contract section 4). Unknown fields are kept. */
export interface ProviderConfigEntry {
  id: string;
  /** Which of the provider's accounts this entry is (a label, see domain/account.ts); absent: the default account. */
  account?: string;
  enabled?: boolean;
  apiKey?: string;
  source?: string;
  region?: string;
  cookieSource?: string;
  cookieHeader?: string;
  workspaceID?: string;
  notify?: NotifyConfig;
  [field: string]: unknown;
}

export interface QuotabarConfig {
  version?: number;
  providers: ProviderConfigEntry[];
  status?: { enabled?: boolean; intervalMinutes?: number; [field: string]: unknown };
  timeoutSeconds?: number;
  notify?: NotifyConfig;
  [field: string]: unknown;
}

export interface ConfigStore {
  /** Where the file lives (it may not exist yet). */
  path(): string;
  /** The config, or an empty one when the file does not exist. Throws a ConfigFileError when it cannot be read. */
  load(): Promise<QuotabarConfig>;
  /** Read, change, write atomically under a lock. Never writes over a file that does not parse. */
  update(change: (config: QuotabarConfig) => void): Promise<QuotabarConfig>;
}
