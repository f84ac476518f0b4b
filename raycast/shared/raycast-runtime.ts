import { Cache, environment, getPreferenceValues, LaunchType, LocalStorage } from "@raycast/api";
import { DocumentCache } from "./adapters/document-cache.js";
import type { QuotabarPreferences } from "./preferences.js";
import type { RaycastAdapters } from "./raycast-core.js";

/**
 * Raycast's own pieces for the composition root: preferences, encrypted LocalStorage, the shared
 * Cache, and whether someone is there: only a launch the user started may prompt for a browser's key
 * (a background refresh, as the menu bar's interval, never does).
 */
const cache = new Cache({ namespace: "quotabar" });

export function raycastAdapters(): RaycastAdapters {
  return {
    preferences: getPreferenceValues<QuotabarPreferences>(),
    localStorage: LocalStorage,
    cache,
    env: process.env,
    interactive: environment.launchType === LaunchType.UserInitiated,
  };
}

export const documentCache = new DocumentCache(cache);
