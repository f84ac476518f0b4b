import type { ConfigStore, QuotabarConfig } from "../../../ports/config-store.js";
import { overlayPreferences, type QuotabarPreferences } from "../preferences.js";

/**
 * The config as Raycast sees it: a stored config (the shared CLI file or LocalStorage) with the
 * preferences laid over it on every read. Writes go to the stored config only, so a key typed into
 * Raycast's preferences is never copied into the file.
 */
export class PreferenceConfigStore implements ConfigStore {
  constructor(
    private readonly stored: ConfigStore,
    private readonly preferences: QuotabarPreferences,
  ) {}

  path(): string {
    return this.stored.path();
  }

  async load(): Promise<QuotabarConfig> {
    return overlayPreferences(await this.stored.load(), this.preferences);
  }

  async update(change: (config: QuotabarConfig) => void): Promise<QuotabarConfig> {
    return overlayPreferences(await this.stored.update(change), this.preferences);
  }
}
