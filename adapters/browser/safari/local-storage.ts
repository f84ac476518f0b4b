import { access, open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { parseError } from "../../../domain/errors.js";
import type { LocalStorageEntry } from "../../../ports/browser-credentials.js";
import { asBuffer, type Sqlite, type SqliteDatabase } from "../../sqlite/sqlite.js";
import { withDatabaseCopy } from "../database-copy.js";
import { unreadableSafariData } from "./full-disk-access.js";

export type SafariLocalStorageItem = Omit<LocalStorageEntry, "browser" | "profile">;

export interface SafariLocalStorageQuery {
  /** Origins ("https://app.factory.ai"); only their first-party storage is read. */
  origins: readonly string[];
  /** Only these keys (default: every key of those origins). */
  keys?: readonly string[];
  signal?: AbortSignal;
}

/** Origin directories looked at, at most (one per site that used storage). */
const MAX_ORIGIN_DIRS = 50_000;
const MAX_ORIGIN_FILE_BYTES = 64 * 1024;
const MAX_ITEMS_PER_ORIGIN = 100_000;

/** Safari's website data: `<hash of top origin>/<hash of frame origin>/` holding an `origin` file and `LocalStorage/`. */
export function safariWebsiteDataRoot(home: string): string {
  return join(home, "Library", "Containers", "com.apple.Safari", "Data", "Library", "WebKit", "WebsiteData", "Default");
}

/**
 * The Local Storage items of the origins, read from Safari's `localstorage.sqlite3` files. The
 * directory names are salted hashes, so each origin directory's `origin` file is decoded to find the
 * requested ones (first-party only: the top and the frame origin are the requested origin). Each
 * database is read through a private copy with its sidecars (Safari may hold it locked), by the
 * composition's SQLite engine. A missing root gives no items; without Full Disk Access the read is a
 * "forbidden" error; a damaged database is a parse error.
 */
export async function readSafariLocalStorage(
  root: string,
  query: SafariLocalStorageQuery,
  sqlite: Sqlite,
): Promise<SafariLocalStorageItem[]> {
  const wanted = query.origins.map((origin) => new URL(origin).origin);
  const found = new Map<string, string[]>(); // origin -> its LocalStorage databases
  let seen = 0;
  for (const top of await listDirectories(root)) {
    for (const frame of await listDirectories(join(root, top))) {
      if (++seen > MAX_ORIGIN_DIRS) throw parseError(`${root} holds more than ${MAX_ORIGIN_DIRS} origin directories`);
      query.signal?.throwIfAborted();
      const dir = join(root, top, frame);
      const origin = await readOriginFile(join(dir, "origin"));
      if (!origin || origin.top !== origin.client || !wanted.includes(origin.client)) continue;
      found.set(origin.client, [...(found.get(origin.client) ?? []), join(dir, "LocalStorage", "localstorage.sqlite3")]);
    }
  }
  const items: SafariLocalStorageItem[] = [];
  for (const origin of wanted) {
    for (const file of found.get(origin) ?? []) {
      query.signal?.throwIfAborted();
      const rows = await readItemTable(sqlite, file, query.keys);
      for (const { key, value } of rows) items.push({ origin, key, value });
    }
  }
  return items;
}

/** A WebKit ClientOrigin as `origin` files store it (WTF::Persistence): the top origin, then the frame's. */
export function decodeOriginFile(bytes: Uint8Array): { top: string; client: string } | null {
  let pos = 0;
  const take = (n: number) => {
    if (n > bytes.length - pos) throw new RangeError("origin file ends early");
    const slice = Buffer.from(bytes.buffer, bytes.byteOffset + pos, n);
    pos += n;
    return slice;
  };
  const string = () => {
    const length = take(4).readUInt32LE(0);
    if (length === 0xffffffff) throw new RangeError("null string");
    const is8Bit = take(1)[0];
    if (is8Bit === 1) return take(length).toString("latin1");
    if (is8Bit === 0) return take(length * 2).toString("utf16le");
    throw new RangeError("bad string flag");
  };
  const securityOrigin = () => {
    const protocol = string();
    const host = string();
    const hasPort = take(1)[0];
    if (hasPort !== 0 && hasPort !== 1) throw new RangeError("bad port flag");
    const port = hasPort === 1 ? take(2).readUInt16LE(0) : null;
    return new URL(`${protocol}://${host}${port === null ? "" : `:${port}`}`).origin;
  };
  try {
    const top = securityOrigin();
    const client = securityOrigin();
    return top === "null" || client === "null" ? null : { top, client };
  } catch {
    return null; // not an origin we could ask for
  }
}

async function listDirectories(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw unreadableSafariData(error, dir);
  }
}

async function readOriginFile(path: string): Promise<{ top: string; client: string } | null> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw unreadableSafariData(error, path);
  }
  try {
    const buffer = Buffer.alloc(MAX_ORIGIN_FILE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return decodeOriginFile(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** The rows of `ItemTable` (older builds: `localstorage`), read through a private copy (Safari may hold the file locked); a missing database has none. */
async function readItemTable(sqlite: Sqlite, file: string, keys?: readonly string[]): Promise<{ key: string; value: string }[]> {
  try {
    await access(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw unreadableSafariData(error, file);
  }
  try {
    return await withDatabaseCopy(file, async (copy) => {
      const db = await sqlite.open(copy);
      try {
        return queryItems(db, keys);
      } finally {
        db.close();
      }
    });
  } catch (error) {
    throw explain(error, file);
  }
}

function queryItems(db: SqliteDatabase, keys: readonly string[] | undefined): { key: string; value: string }[] {
  const tables = db
    .all("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('ItemTable', 'localstorage')")
    .map((row) => row.name);
  const table = tables.includes("ItemTable") ? "ItemTable" : tables[0];
  if (typeof table !== "string") return [];
  const filter = keys ? `WHERE key IN (${keys.map(() => "?").join(", ")})` : "";
  const rows = db.all(`SELECT key, value FROM "${table}" ${filter} ORDER BY key LIMIT ${MAX_ITEMS_PER_ORIGIN}`, keys ?? []);
  return rows.flatMap(({ key, value }) => {
    const text = decodeValue(value);
    return typeof key === "string" && text !== null ? [{ key, value: text }] : [];
  });
}

/** WebKit stores values as UTF-16LE without a BOM; an odd length cannot be that, so it is read as UTF-8. */
function decodeValue(value: unknown): string | null {
  if (typeof value === "string") return value;
  const bytes = asBuffer(value);
  return bytes && bytes.toString(bytes.length % 2 === 0 ? "utf16le" : "utf8");
}

function explain(error: unknown, file: string): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && code.startsWith("SQLITE_"))
    return parseError(`Safari Local Storage at ${file} cannot be read: ${(error as Error).message}`);
  return unreadableSafariData(error, file);
}
