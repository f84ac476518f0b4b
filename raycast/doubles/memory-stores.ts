import type { AsyncKeyValueStore, SyncKeyValueStore } from "../shared/adapters/key-value.js";

/** Map-backed stand-ins for Raycast's LocalStorage and Cache, for tests that run without the double. */
export function memoryLocalStorage(): AsyncKeyValueStore & { items: Map<string, string | number | boolean> } {
  const items = new Map<string, string | number | boolean>();
  return {
    items,
    getItem: async <T extends string | number | boolean>(key: string) => items.get(key) as T | undefined,
    setItem: async (key, value) => void items.set(key, value),
    removeItem: async (key) => void items.delete(key),
  };
}

export function memoryCache(): SyncKeyValueStore & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, get: (key) => items.get(key), set: (key, value) => void items.set(key, value), remove: (key) => void items.delete(key) };
}
