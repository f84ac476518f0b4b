import { itemsFrom, localStorageDirectory, originKeys, wantedBy, type ChromiumLocalStorageReader } from "./chromium-local-storage.js";
import { readLevelDb } from "./database.js";

/**
 * Chromium Local Storage read by parsing the LevelDB files in TypeScript (no native addon, for
 * Raycast). Works on the live directory: it never takes the LOCK, and reads the files the MANIFEST
 * lists plus the current logs. A profile without Local Storage gives no items.
 */
export const readChromiumLocalStorage: ChromiumLocalStorageReader = async (profileDir, query) => {
  const dir = await localStorageDirectory(profileDir);
  if (!dir) return [];
  const plans = originKeys(query.origins);
  const values = await readLevelDb(dir, wantedBy(plans), { signal: query.signal });
  return itemsFrom(
    plans,
    [...values].map(([key, value]) => [Buffer.from(key, "latin1"), value] as const),
    query.keys,
  );
};
