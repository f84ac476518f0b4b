import type { ProviderSetting } from "../../domain/descriptor.js";
import type { ProviderConfigEntry, QuotabarConfig } from "../../ports/config-store.js";
import { DESCRIPTORS } from "../../providers/registry.js";

/**
 * The extension's preferences (manifest `preferences`), as `getPreferenceValues` returns them.
 * Every field is optional: Raycast omits empty text and password fields. The provider fields are
 * named after the registry (`<id>ApiKey`, `<id>Cookie`, `<id>Region`), see PROVIDER_PREFERENCES.
 */
export interface QuotabarPreferences {
  statusChecks?: boolean;
  /** "Read browser secrets": off keeps every browser whose cookie key is in the Keychain unread (config `browserSecrets`). */
  browserSecrets?: boolean;
  configPath?: string;
  /** Menu-bar command only: "auto" (most used) or a provider id. */
  menuBarProvider?: string;
  /** Menu-bar command only: what the title shows (menubar-raycast/menu-bar-title.ts TITLE_MODES). */
  menuBarTitle?: string;
  /** Menu-bar command only: Rotate's step in seconds, as the dropdown's string. */
  menuBarRotateSeconds?: string;
  /** Menu-bar command only: the title without words. */
  menuBarCompact?: boolean;
  /** Menu-bar command only: a toast (a HUD when Raycast is closed) for thresholds, run-outs and incidents. Default on. */
  menuBarNotify?: boolean;
  /** List command only: list the providers this version cannot read yet in a Coming Soon section (see coming-soon.ts). */
  showComingSoon?: boolean;
  [providerPreference: string]: string | boolean | undefined;
}

/** A provider preference: one setting of a descriptor, under the name the manifest gives it. */
export interface ProviderPreference {
  name: string;
  provider: string;
  setting: ProviderSetting;
}

const SUFFIX: Record<ProviderSetting["field"], string> = { apiKey: "ApiKey", cookieHeader: "Cookie", region: "Region" };

/** `warpApiKey`, `kimiCookie`, `zaiRegion`: a setting's preference name, the same rule for every provider. */
export function preferenceName(provider: string, field: ProviderSetting["field"]): string {
  return `${provider}${SUFFIX[field]}`;
}

/** Every provider preference, in registry order then each descriptor's settings order (the manifest's order too). */
export const PROVIDER_PREFERENCES: readonly ProviderPreference[] = DESCRIPTORS.flatMap((descriptor) =>
  (descriptor.settings ?? []).map((setting) => ({ name: preferenceName(descriptor.id, setting.field), provider: descriptor.id, setting })),
);

/** The preference of a provider's setting, if it has one. */
export function preferenceOf(provider: string, field: ProviderSetting["field"]): ProviderPreference | undefined {
  return PROVIDER_PREFERENCES.find((p) => p.provider === provider && p.setting.field === field);
}

/** The preference a user fills in to set a provider up (its key, else its cookie), if it has one. */
export function credentialPreferenceOf(provider: string): ProviderPreference | undefined {
  return preferenceOf(provider, "apiKey") ?? preferenceOf(provider, "cookieHeader");
}

function clean(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  return text === "" ? null : text;
}

/**
 * The config the core sees: the stored config (shared CLI file or Raycast LocalStorage) with the
 * preferences laid over it. A key typed into Raycast wins over the file, and turns its provider on
 * unless the file says `enabled: false`. A region dropdown left at its default keeps the file's region.
 * Pure: the stored config is not changed, so preferences never get written back to the file.
 */
export function overlayPreferences(config: QuotabarConfig, preferences: QuotabarPreferences): QuotabarConfig {
  const providers: ProviderConfigEntry[] = config.providers.map((entry) => ({ ...entry }));
  // preferences are the default account's: an entry naming an `account` is left as the file has it
  const defaultOf = (id: string) => providers.find((e) => e.id === id && typeof e.account !== "string");
  const entryFor = (id: string): ProviderConfigEntry => {
    let entry = defaultOf(id);
    if (!entry) {
      entry = { id };
      providers.push(entry);
    }
    return entry;
  };
  for (const { name, provider, setting } of PROVIDER_PREFERENCES) {
    const value = clean(preferences[name]);
    if (value === null) continue;
    if (setting.field === "region") {
      const existing = defaultOf(provider);
      if (value === setting.default && typeof existing?.region === "string") continue;
      entryFor(provider).region = value;
      continue;
    }
    const entry = entryFor(provider);
    if (setting.field === "apiKey") entry.apiKey = value;
    else {
      entry.cookieSource = "manual";
      entry.cookieHeader = value;
    }
    if (entry.enabled === undefined) entry.enabled = true;
  }
  const overlaid: QuotabarConfig = { ...config, providers };
  if (typeof preferences.statusChecks === "boolean") overlaid.status = { ...config.status, enabled: preferences.statusChecks };
  // unticked turns browser secrets off whatever the file says; ticked leaves the file's choice
  if (preferences.browserSecrets === false) overlaid.browserSecrets = false;
  return overlaid;
}

/** `~/…` in the config path preference, expanded; null when the preference is empty. */
export function sharedConfigPath(preferences: QuotabarPreferences, home: string): string | null {
  const path = clean(preferences.configPath);
  if (path === null) return null;
  if (path === "~") return home;
  return path.startsWith("~/") ? `${home}/${path.slice(2)}` : path;
}
