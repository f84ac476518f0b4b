import type { ProviderConfigEntry, QuotabarConfig } from "../../ports/config-store.js";
import type { ProviderId } from "../../domain/providers/descriptor.js";

/**
 * The extension's preferences (manifest `preferences`), as `getPreferenceValues` returns them.
 * Every field is optional: Raycast omits empty text and password fields.
 */
export interface QuotabarPreferences {
  copilotToken?: string;
  openrouterApiKey?: string;
  warpApiKey?: string;
  zaiApiKey?: string;
  zaiRegion?: string;
  kimiCookie?: string;
  kimik2ApiKey?: string;
  kiloApiKey?: string;
  minimaxApiKey?: string;
  minimaxRegion?: string;
  minimaxCookie?: string;
  augmentCookie?: string;
  ampCookie?: string;
  factoryCookie?: string;
  opencodeCookie?: string;
  ollamaCookie?: string;
  statusChecks?: boolean;
  configPath?: string;
  /** Menu-bar command only: "auto" (most used) or a provider id. */
  menuBarProvider?: string;
}

type PreferenceName = Exclude<keyof QuotabarPreferences, "statusChecks" | "configPath" | "menuBarProvider">;

/** What a preference feeds into: the entry's `apiKey`, its manual `cookieHeader`, or its `region`. */
export interface ProviderPreference {
  name: PreferenceName;
  provider: ProviderId;
  field: "apiKey" | "cookieHeader" | "region";
  /** The title the manifest shows (also used in hints, so they name what the user sees). */
  title: string;
  /** Region dropdowns: the value that leaves a config file's region alone. */
  defaultValue?: string;
}

/** One line per preference, in catalog order (a key added here places its provider in that order); a test keeps the manifest in step. */
export const PROVIDER_PREFERENCES: readonly ProviderPreference[] = [
  { name: "copilotToken", provider: "copilot", field: "apiKey", title: "GitHub Copilot Token" },
  { name: "openrouterApiKey", provider: "openrouter", field: "apiKey", title: "OpenRouter API Key" },
  { name: "zaiApiKey", provider: "zai", field: "apiKey", title: "z.ai API Key" },
  { name: "zaiRegion", provider: "zai", field: "region", title: "z.ai Region", defaultValue: "global" },
  { name: "warpApiKey", provider: "warp", field: "apiKey", title: "Warp API Key" },
  { name: "kimiCookie", provider: "kimi", field: "cookieHeader", title: "Kimi Cookie (kimi-auth)" },
  { name: "kiloApiKey", provider: "kilo", field: "apiKey", title: "Kilo Code API Key" },
  { name: "minimaxApiKey", provider: "minimax", field: "apiKey", title: "MiniMax API Key" },
  { name: "minimaxRegion", provider: "minimax", field: "region", title: "MiniMax Region", defaultValue: "global" },
  { name: "minimaxCookie", provider: "minimax", field: "cookieHeader", title: "MiniMax Cookie Header" },
  { name: "kimik2ApiKey", provider: "kimik2", field: "apiKey", title: "Kimi K2 API Key (Unofficial)" },
  { name: "augmentCookie", provider: "augment", field: "cookieHeader", title: "Augment Cookie Header" },
  { name: "ampCookie", provider: "amp", field: "cookieHeader", title: "Amp Cookie Header" },
  { name: "factoryCookie", provider: "factory", field: "cookieHeader", title: "Factory Cookie Header" },
  { name: "opencodeCookie", provider: "opencode", field: "cookieHeader", title: "OpenCode Cookie Header" },
  { name: "ollamaCookie", provider: "ollama", field: "cookieHeader", title: "Ollama Cookie Header" },
];

/** The preference a user fills in to set a provider up (its key or cookie), if it has one. */
export function credentialPreferenceOf(provider: string): ProviderPreference | undefined {
  return PROVIDER_PREFERENCES.find((p) => p.provider === provider && p.field !== "region");
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
  const entryFor = (id: string): ProviderConfigEntry => {
    let entry = providers.find((e) => e.id === id);
    if (!entry) {
      entry = { id };
      providers.push(entry);
    }
    return entry;
  };
  for (const preference of PROVIDER_PREFERENCES) {
    const value = clean(preferences[preference.name]);
    if (value === null) continue;
    if (preference.field === "region") {
      const existing = providers.find((e) => e.id === preference.provider);
      if (value === preference.defaultValue && typeof existing?.region === "string") continue;
      entryFor(preference.provider).region = value;
      continue;
    }
    const entry = entryFor(preference.provider);
    if (preference.field === "apiKey") entry.apiKey = value;
    else {
      entry.cookieSource = "manual";
      entry.cookieHeader = value;
    }
    if (entry.enabled === undefined) entry.enabled = true;
  }
  const overlaid: QuotabarConfig = { ...config, providers };
  if (typeof preferences.statusChecks === "boolean") overlaid.status = { ...config.status, enabled: preferences.statusChecks };
  return overlaid;
}

/** `~/…` in the config path preference, expanded; null when the preference is empty. */
export function sharedConfigPath(preferences: QuotabarPreferences, home: string): string | null {
  const path = clean(preferences.configPath);
  if (path === null) return null;
  if (path === "~") return home;
  return path.startsWith("~/") ? `${home}/${path.slice(2)}` : path;
}

/** Status checks are on unless switched off (in Raycast or in the shared config file). */
export function statusChecksEnabled(config: QuotabarConfig): boolean {
  return config.status?.enabled !== false;
}
