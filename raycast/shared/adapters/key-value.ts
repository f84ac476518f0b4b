/**
 * The two storage shapes Raycast offers, as the adapters need them. Raycast's `LocalStorage`
 * (encrypted, async) and `Cache` (plain, sync) satisfy them; tests pass a Map.
 */
export interface AsyncKeyValueStore {
  getItem<T extends string | number | boolean>(key: string): Promise<T | undefined>;
  setItem(key: string, value: string | number | boolean): Promise<void>;
  removeItem(key: string): Promise<void>;
}

export interface SyncKeyValueStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  remove(key: string): void;
}
