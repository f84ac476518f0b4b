import { parseConfig } from "../../../adapters/config/parse-config.js";
import type { ConfigStore, QuotabarConfig } from "../../../ports/config-store.js";
import type { AsyncKeyValueStore } from "./key-value.js";

export const LOCAL_CONFIG_KEY = "config.json";

/**
 * The config kept in Raycast's encrypted LocalStorage when no CLI config file is shared: same
 * shape and validation as the file, so the Copilot token saved by the login lands "where the
 * Raycast side keeps secrets". Updates are serialised so two writers never lose a change.
 */
export class KeyValueConfigStore implements ConfigStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: AsyncKeyValueStore,
    private readonly key = LOCAL_CONFIG_KEY,
  ) {}

  path(): string {
    return "Raycast LocalStorage";
  }

  async load(): Promise<QuotabarConfig> {
    const text = await this.store.getItem<string>(this.key);
    return typeof text === "string" ? parseConfig(this.path(), text) : { version: 1, providers: [] };
  }

  update(change: (config: QuotabarConfig) => void): Promise<QuotabarConfig> {
    const next = this.queue.then(async () => {
      const config = await this.load();
      change(config);
      await this.store.setItem(this.key, JSON.stringify(config));
      return config;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
