import { Cache, getPreferenceValues, LocalStorage } from "@raycast/api";
import { DocumentCache } from "./adapters/document-cache.js";
import type { QuotabarPreferences } from "./preferences.js";
import type { RaycastAdapters } from "./raycast-core.js";

/** Raycast's own pieces for the composition root: preferences, encrypted LocalStorage, the shared Cache. */
const cache = new Cache({ namespace: "quotabar" });

export function raycastAdapters(): RaycastAdapters {
  return {
    preferences: getPreferenceValues<QuotabarPreferences>(),
    localStorage: LocalStorage,
    cache,
    env: process.env,
  };
}

export const documentCache = new DocumentCache(cache);
