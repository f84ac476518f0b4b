import { storageName, type AccountKey } from "../../domain/account.js";

/** Where an account's kept snapshot is (StoredSnapshotCache writes it, LatestSnapshots reads it). */
export const snapshotKey = (key: AccountKey) => `snapshots/${storageName(key)}`;

/** Where an account's last failed refresh is noted (LatestSnapshots). */
export const failureKey = (key: AccountKey) => `snapshots/failed/${storageName(key)}`;

/**
 * What tells one origin map (QUOTABAR_ORIGIN_MAP) from another in a kept entry: "" without one,
 * else a 64-bit FNV-1a of it. Not a secret's hash (an origin map holds none), only its identity,
 * computed without node:crypto, which a status bar's poll would otherwise load for this alone.
 */
export function originKey(origins: string): string {
  if (origins === "") return "";
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < origins.length; i++) {
    const c = origins.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return `${(a >>> 0).toString(16).padStart(8, "0")}${(b >>> 0).toString(16).padStart(8, "0")}`;
}
