import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { LocalStorageEntry } from "../../../ports/browser-credentials.js";

/** One Local Storage item of a site, before the composition says which browser and profile it came from. */
export interface LocalStorageItem extends Omit<LocalStorageEntry, "browser" | "profile"> {
  /** When the site last wrote its Local Storage (Chromium's META record), absolute UTC. */
  originModifiedAt?: string;
}

export interface ChromiumLocalStorageQuery {
  /** Origins ("https://app.factory.ai"); third-party (partitioned) storage of an origin is not included. */
  origins: readonly string[];
  /** Only these keys (default: every key of those origins). */
  keys?: readonly string[];
  signal?: AbortSignal;
}

/** Both readers (classic-level for the CLI, the pure one for Raycast) have this shape. */
export type ChromiumLocalStorageReader = (profileDir: string, query: ChromiumLocalStorageQuery) => Promise<LocalStorageItem[]>;

/** `<profile>/Local Storage/leveldb` when the profile has one. */
export async function localStorageDirectory(profileDir: string): Promise<string | null> {
  const dir = join(profileDir, "Local Storage", "leveldb");
  const found = await stat(dir).catch(() => null);
  return found?.isDirectory() ? dir : null;
}

/** The LevelDB keys Chromium files one origin under. */
export interface OriginKeys {
  origin: string;
  /** `_` + storage key + NUL, before each item's encoded key: the serialized origin first, then the bare host some builds used. */
  itemPrefixes: Buffer[];
  /** `META:` + storage key: the origin's last write and size. */
  metaKeys: Buffer[];
}

export function originKeys(origins: readonly string[]): OriginKeys[] {
  return origins.map((raw) => {
    const url = new URL(raw);
    if (url.origin === "null") throw new Error(`not an origin: ${raw}`);
    const storageKeys = [url.origin, url.host];
    return {
      origin: url.origin,
      itemPrefixes: storageKeys.map((key) => Buffer.from(`_${key}\u0000`, "utf8")),
      metaKeys: storageKeys.map((key) => Buffer.from(`META:${key}`, "utf8")),
    };
  });
}

/** Whether a raw LevelDB key belongs to one of the origins (an item or a META record). */
export function wantedBy(plans: readonly OriginKeys[]): (key: Uint8Array) => boolean {
  return (key) =>
    plans.some((plan) => plan.itemPrefixes.some((prefix) => startsWith(key, prefix)) || plan.metaKeys.some((meta) => equal(key, meta)));
}

/**
 * Decodes the raw records of the origins into items: `_<storage key>\x00<encoded key>` -> encoded
 * value. Items under the serialized origin win over the same key under a bare host. Records that do
 * not decode (an unknown format byte, odd UTF-16) are skipped.
 */
export function itemsFrom(
  plans: readonly OriginKeys[],
  records: Iterable<readonly [Uint8Array, Uint8Array]>,
  keys?: readonly string[],
): LocalStorageItem[] {
  const only = keys ? new Set(keys) : null;
  const found = new Map<string, { planIndex: number; rank: number; item: LocalStorageItem }>();
  const modified = new Map<number, { rank: number; at: string }>();
  for (const [rawKey, rawValue] of records) {
    plans.forEach((plan, planIndex) => {
      plan.metaKeys.forEach((meta, rank) => {
        if (!equal(rawKey, meta)) return;
        const at = metaModifiedAt(rawValue);
        const seen = modified.get(planIndex);
        if (at && (!seen || rank < seen.rank)) modified.set(planIndex, { rank, at });
      });
      plan.itemPrefixes.forEach((prefix, rank) => {
        if (!startsWith(rawKey, prefix)) return;
        const key = decodeScriptString(rawKey.subarray(prefix.length));
        const value = decodeScriptString(rawValue);
        if (key === null || value === null || (only && !only.has(key))) return;
        const id = `${planIndex}\u0000${key}`;
        const seen = found.get(id);
        if (!seen || rank < seen.rank) found.set(id, { planIndex, rank, item: { origin: plan.origin, key, value } });
      });
    });
  }
  return [...found.values()]
    .sort((a, b) => a.planIndex - b.planIndex || (a.item.key < b.item.key ? -1 : a.item.key > b.item.key ? 1 : 0))
    .map(({ planIndex, item }) => {
      const at = modified.get(planIndex)?.at;
      return at ? { ...item, originModifiedAt: at } : item;
    });
}

/** Blink's stored string: a format byte, then UTF-16LE (0) or Latin-1 (1) code units. */
export function decodeScriptString(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return null;
  const payload = Buffer.from(bytes.buffer, bytes.byteOffset + 1, bytes.length - 1);
  if (bytes[0] === 1) return payload.toString("latin1");
  if (bytes[0] === 0 && payload.length % 2 === 0) return payload.toString("utf16le");
  return null;
}

const WINDOWS_EPOCH_OFFSET_MS = 11_644_473_600_000n;

/** `last_modified` (protobuf field 1: microseconds since 1601) of a META record, as ISO text; undefined when absent or malformed. */
export function metaModifiedAt(bytes: Uint8Array): string | undefined {
  let pos = 0;
  const varint = (): bigint | undefined => {
    let value = 0n;
    for (let shift = 0n; shift < 70n && pos < bytes.length; shift += 7n) {
      const b = bytes[pos++] as number;
      value |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return value;
    }
    return undefined;
  };
  while (pos < bytes.length) {
    const tag = varint();
    if (tag === undefined || (tag & 7n) !== 0n) return undefined; // both fields Chromium writes are varints
    const value = varint();
    if (value === undefined) return undefined;
    if (tag >> 3n !== 1n) continue;
    const ms = Number(value / 1000n - WINDOWS_EPOCH_OFFSET_MS);
    const date = new Date(ms);
    return ms > 0 && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
  }
  return undefined;
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && startsWith(a, b);
}
