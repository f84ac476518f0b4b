import type { ClassicLevel as ClassicLevelClass } from "classic-level";
import { copyFile, lstat, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseError } from "../../../domain/errors.js";
import {
  itemsFrom,
  localStorageDirectory,
  originKeys,
  type ChromiumLocalStorageReader,
  type OriginKeys,
} from "./chromium-local-storage.js";
import { Corruption } from "./corruption.js";
import { checkLevelDb, FileVanished, LEVELDB_LIMITS } from "./database.js";
import { loadOptionalAddon } from "../../optional-addon.js";

const ATTEMPTS = 3;
const RETRY_DELAY_MS = 250;
/** Items of one origin at most (a site's quota is a few MiB, so real origins stay far below). */
const MAX_ITEMS_PER_ORIGIN = 100_000;

/**
 * Chromium Local Storage read through classic-level (LevelDB itself: exact log replay, every
 * compression). LevelDB cannot open a directory the browser holds locked, and opening writes, so this
 * copies the directory (without its LOCK) into a private temp dir, checks the copy with the pure
 * reader's parsers, reads it and removes it. A copy torn by a compaction is taken again. A profile
 * without Local Storage gives no items.
 */
export const readChromiumLocalStorage: ChromiumLocalStorageReader = async (profileDir, query) => {
  const source = await localStorageDirectory(profileDir);
  if (!source) return [];
  const plans = originKeys(query.origins);
  for (let attempt = 1; ; attempt++) {
    query.signal?.throwIfAborted();
    const copy = await mkdtemp(join(tmpdir(), "quotabar-leveldb-"));
    try {
      await copyDatabase(source, copy);
      // LevelDB aborts the whole process on some damage it does not check for (a table key cut
      // shorter than its sequence number fails an assert): the copy must pass the pure reader's
      // checks (every block's checksum, every key's length) before LevelDB opens it
      await checkLevelDb(copy, query.signal);
      return itemsFrom(plans, await recordsOf(copy, plans), query.keys);
    } catch (error) {
      if (attempt < ATTEMPTS && tornCopy(error)) {
        await sleep(RETRY_DELAY_MS);
        continue;
      }
      throw explain(error, source, copy);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  }
};

/** Every regular file but LOCK, within the pure reader's size limits; a file deleted meanwhile is skipped. */
async function copyDatabase(source: string, target: string): Promise<void> {
  const names = (await readdir(source)).filter((name) => name !== "LOCK");
  if (names.length > LEVELDB_LIMITS.files)
    throw parseError(`The LevelDB database in ${source} has more than ${LEVELDB_LIMITS.files} files`);
  let total = 0;
  for (const name of names) {
    const found = await lstat(join(source, name)).catch(() => null);
    if (!found?.isFile()) continue;
    total += found.size;
    if (found.size > LEVELDB_LIMITS.fileBytes || total > LEVELDB_LIMITS.totalBytes)
      throw parseError(`The LevelDB database in ${source} is larger than this reader accepts`);
    await copyFile(join(source, name), join(target, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
  }
}

async function recordsOf(dir: string, plans: readonly OriginKeys[]): Promise<[Uint8Array, Uint8Array][]> {
  const { ClassicLevel } = loadOptionalAddon<{ ClassicLevel: typeof ClassicLevelClass }>("classic-level");
  const db = new ClassicLevel<Buffer, Buffer>(dir, { keyEncoding: "buffer", valueEncoding: "buffer", createIfMissing: false });
  await db.open();
  try {
    const records: [Uint8Array, Uint8Array][] = [];
    for (const plan of plans) {
      for (const prefix of plan.itemPrefixes) {
        const end = Buffer.from(prefix);
        end[end.length - 1] = 1; // the prefix ends in NUL: every key of the storage key sorts before this
        for await (const entry of db.iterator({ gte: prefix, lt: end, limit: MAX_ITEMS_PER_ORIGIN })) records.push(entry);
      }
      for (const meta of plan.metaKeys) {
        const value = await db.get(meta);
        if (value !== undefined) records.push([meta, value]);
      }
    }
    return records;
  } finally {
    await db.close();
  }
}

type LevelError = Error & { code?: string; cause?: { code?: string; message?: string } };

/** A MANIFEST naming a table that was compacted away before the copy reached it, or a file caught mid-write. */
function tornCopy(error: unknown): boolean {
  if (error instanceof FileVanished || error instanceof Corruption) return true;
  const codes = [(error as LevelError).code, (error as LevelError).cause?.code];
  return codes.some((code) => code === "LEVEL_CORRUPTION" || code === "LEVEL_IO_ERROR");
}

/** LevelDB's own words (or the check's), about the source directory rather than our copy of it. */
function explain(error: unknown, source: string, copy: string): unknown {
  if (error instanceof Corruption || error instanceof FileVanished)
    return parseError(`The LevelDB database in ${source} cannot be read: ${error.message}`);
  const level = error as LevelError;
  if (typeof level?.code !== "string" || !level.code.startsWith("LEVEL_")) return error;
  const reason = (level.cause?.message ?? level.message).replaceAll(copy, source);
  return parseError(`The LevelDB database in ${source} cannot be read: ${reason}`);
}
