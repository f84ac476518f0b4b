import type { ProviderConfigEntry } from "./config-store.js";
import type { Environment } from "./environment.js";

/** What one provider fetch may look at: its config entry, the environment, the clock, a cancel signal. */
export interface FetchContext {
  env: Environment;
  entry: ProviderConfigEntry;
  signal: AbortSignal;
  now: () => Date;
  /** The budget of this provider's fetch, for adapters that split it (e.g. a best-effort second call). */
  timeoutMs: number;
  /** Source mode forced by the caller (`--source`), else the entry's `source`, else auto. */
  sourceMode: string;
  /** Where the config file lives, for hints. */
  configPath: string;
}
