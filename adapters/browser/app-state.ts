import type { AppStateReader } from "../../ports/browser-credentials.js";
import { openRegularFile, UnreadableFileError } from "../fs/regular-file.js";
import { asBuffer, type Sqlite, type SqliteValue } from "../sqlite/sqlite.js";
import { readDatabaseCopy } from "./database-copy.js";

/** Heavy Cursor users' state databases grow to hundreds of MiB (chat history): copying more than this is refused. */
export const MAX_APP_STATE_BYTES = 2 * 1024 * 1024 * 1024;
/** Longer than any token an app keeps: a longer value is not one, and is left out. */
const MAX_VALUE_CHARS = 64 * 1024;

const absent = (error: unknown) => ["ENOENT", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "");

/** Reads VS Code-style state databases with the composition's SQLite engine. */
export function appStateReader(sqlite: Sqlite): AppStateReader {
  return { read: (path, keys) => readAppState(sqlite, path, keys) };
}

/**
 * The values of `keys` in the `ItemTable` of the database at `path`, read from a private copy (the
 * app may hold it open, mid-write; its files are only ever read): null when there is no such file.
 */
export async function readAppState(sqlite: Sqlite, path: string, keys: readonly string[]): Promise<Record<string, string> | null> {
  let size: number;
  try {
    // a FIFO or a device is refused before anything copies it (a copy of a FIFO would wait forever)
    const opened = await openRegularFile(path);
    size = opened.size;
    await opened.handle.close();
  } catch (error) {
    if (absent(error)) return null;
    throw error;
  }
  if (size > MAX_APP_STATE_BYTES) throw new UnreadableFileError(path, `larger than ${MAX_APP_STATE_BYTES / 1024 ** 3} GiB`, "EFBIG");
  if (keys.length === 0) return {};
  const rows = await readDatabaseCopy(sqlite, path, (db) =>
    db.all(`SELECT key, value FROM ItemTable WHERE key IN (${keys.map(() => "?").join(", ")})`, keys),
  );
  const found: Record<string, string> = {};
  for (const row of rows) {
    const value = textOf(row.value ?? null);
    if (typeof row.key === "string" && value !== null && value.length <= MAX_VALUE_CHARS) found[row.key] = value;
  }
  return found;
}

/** A value as VS Code stores it: text, or a blob of UTF-8 (UTF-16LE when it holds NUL bytes, as some writers leave it). */
function textOf(value: SqliteValue): string | null {
  if (typeof value === "string") return value;
  const blob = asBuffer(value);
  if (!blob) return null;
  return blob.includes(0) ? blob.toString("utf16le") : blob.toString("utf8");
}
