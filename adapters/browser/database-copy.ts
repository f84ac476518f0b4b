import { copyFile, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { UnreadableFileError } from "../fs/regular-file.js";
import type { Sqlite, SqliteDatabase } from "../sqlite/sqlite.js";

/** The files SQLite keeps next to a database while it is open or mid-commit. */
const SIDECARS = ["-journal", "-wal", "-shm"] as const;
const TORN = /SQLITE_BUSY|SQLITE_CORRUPT|SQLITE_NOTADB|database is locked|malformed|not a database/i;
const RETRY_AFTER_MS = 250;

const absent = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

/**
 * Runs `read` on a private copy of a live database (a browser holds it open, sometimes locked):
 * the file and every sidecar that exists, copied into a fresh 0700 temp directory that is removed
 * afterwards. The browser's own files are only ever read. A torn copy (a commit landed mid-copy) is
 * copied and read once more.
 */
export async function withDatabaseCopy<T>(path: string, read: (copy: string) => Promise<T>): Promise<T> {
  try {
    return await readCopy(path, read);
  } catch (error) {
    if (!TORN.test(String((error as Error)?.message)) && !TORN.test(String((error as NodeJS.ErrnoException)?.code))) throw error;
    await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
    return readCopy(path, read);
  }
}

async function readCopy<T>(path: string, read: (copy: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "quotabar-browser-"));
  try {
    const copy = join(dir, basename(path));
    await copyRegular(path, copy);
    for (const suffix of SIDECARS) {
      // a sidecar comes and goes with each transaction: absent is fine
      await copyRegular(`${path}${suffix}`, `${copy}${suffix}`).catch((error: unknown) => {
        if (!absent(error)) throw error;
      });
    }
    return await read(copy);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A copy of a regular file only: copying a FIFO put in a sidecar's place would wait for a writer forever. */
async function copyRegular(from: string, to: string): Promise<void> {
  const info = await stat(from);
  if (!info.isFile()) throw new UnreadableFileError(from, info.isDirectory() ? "a directory, not a file" : "not a regular file", "ENOTREG");
  await copyFile(from, to);
}

/** Opens a private copy of a live database with the composition's SQLite engine, reads it, closes it. */
export function readDatabaseCopy<T>(sqlite: Sqlite, path: string, read: (db: SqliteDatabase) => T): Promise<T> {
  return withDatabaseCopy(path, async (copy) => {
    const db = await sqlite.open(copy);
    try {
      return read(db);
    } finally {
      db.close();
    }
  });
}
