import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseError } from "../../../domain/errors.js";
import { Corruption } from "./corruption.js";
import { batchOperations, logRecords } from "./log-format.js";
import { readManifest } from "./manifest.js";
import { tableEntries } from "./table-format.js";

/** How much of a LevelDB directory the pure reader agrees to look at. */
export interface LevelDbLimits {
  /** Bytes of one file (a MANIFEST, a log, a table). */
  fileBytes: number;
  /** Bytes of all files together. */
  totalBytes: number;
  /** Live logs and tables. */
  files: number;
  /** Table entries and logged operations looked at, wanted or not. */
  entries: number;
}

const MiB = 1024 * 1024;
export const LEVELDB_LIMITS: LevelDbLimits = { fileBytes: 64 * MiB, totalBytes: 256 * MiB, files: 2_000, entries: 5_000_000 };

const BYTEWISE = "leveldb.BytewiseComparator";
const ATTEMPTS = 3;
const RETRY_DELAY_MS = 200;
const CURRENT_NAME = /^MANIFEST-\d{1,20}$/;
const LOG_NAME = /^(\d{1,20})\.log$/;
const TABLE_NAME = /^(\d{1,20})\.(?:ldb|sst)$/;

/** A file the MANIFEST names went away while we read: the browser compacted; read again. */
export class FileVanished extends Error {}

/**
 * The newest value of every key `wanted` accepts, deletions honoured, read straight from the live
 * files of a LevelDB directory (the ones its MANIFEST lists, and the current logs) without opening
 * it: safe while the browser holds its LOCK. Keys come back as latin1 strings (one char per byte).
 * A damaged file is a parse error naming it; a directory that keeps changing is read again.
 */
export async function readLevelDb(
  dir: string,
  wanted: (key: Uint8Array) => boolean,
  options: { signal?: AbortSignal; limits?: LevelDbLimits } = {},
): Promise<Map<string, Uint8Array>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await readOnce(dir, wanted, options.limits ?? LEVELDB_LIMITS, options.signal);
    } catch (error) {
      if (error instanceof FileVanished && attempt < ATTEMPTS) {
        await sleep(RETRY_DELAY_MS);
        continue;
      }
      if (error instanceof Corruption || error instanceof FileVanished)
        throw parseError(`The LevelDB database in ${dir} cannot be read: ${error.message}`);
      throw error;
    }
  }
}

/**
 * Whether a LevelDB directory nobody writes (a copy) holds what its format promises, every file
 * read through: a Corruption (naming the file), or FileVanished when a table its MANIFEST lists is
 * not there (a copy torn by a compaction).
 */
export async function checkLevelDb(dir: string, signal?: AbortSignal): Promise<void> {
  await readOnce(dir, () => false, LEVELDB_LIMITS, signal);
}

async function readOnce(
  dir: string,
  wanted: (key: Uint8Array) => boolean,
  limits: LevelDbLimits,
  signal: AbortSignal | undefined,
): Promise<Map<string, Uint8Array>> {
  const current = Buffer.from(await readBounded(dir, "CURRENT", 4096, false)).toString("latin1");
  const manifestName = current.endsWith("\n") ? current.slice(0, -1) : current;
  if (!CURRENT_NAME.test(manifestName)) throw new Corruption("CURRENT does not name a MANIFEST");
  const state = await inFile(manifestName, async () => readManifest(await readBounded(dir, manifestName, limits.fileBytes)));
  if (state.comparator !== null && state.comparator !== BYTEWISE)
    throw new Corruption(`it is ordered by "${state.comparator}", not bytewise (an IndexedDB database?)`);

  const names = await readdir(dir);
  const tables = names.filter((name) => {
    const number = TABLE_NAME.exec(name)?.[1];
    return number !== undefined && state.tables.has(Number(number));
  });
  if (tables.length < state.tables.size) throw new FileVanished("a table the MANIFEST lists is missing");
  const logs = names
    .map((name) => ({ name, number: Number(LOG_NAME.exec(name)?.[1] ?? NaN) }))
    .filter(({ number }) => number >= state.logNumber || number === state.prevLogNumber)
    .sort((a, b) => a.number - b.number)
    .map(({ name }) => name);
  if (tables.length + logs.length > limits.files) throw new Corruption(`it has more than ${limits.files} live files`);

  const newest = new Map<string, { sequence: bigint; value: Uint8Array | null }>();
  let entries = 0;
  let totalBytes = 0;
  const take = (key: Uint8Array, value: Uint8Array | null, sequence: bigint) => {
    if (++entries > limits.entries) throw new Corruption(`it holds more than ${limits.entries} entries`);
    if (!wanted(key)) return;
    const id = Buffer.from(key.buffer, key.byteOffset, key.length).toString("latin1");
    const seen = newest.get(id);
    if (!seen || sequence > seen.sequence) newest.set(id, { sequence, value: value && value.slice() });
  };
  const load = async (name: string) => {
    signal?.throwIfAborted();
    const bytes = await readBounded(dir, name, limits.fileBytes);
    totalBytes += bytes.length;
    if (totalBytes > limits.totalBytes) throw new Corruption(`its files hold more than ${limits.totalBytes} bytes`);
    return bytes;
  };
  for (const name of tables) {
    const bytes = await load(name);
    await inFile(name, async () => tableEntries(bytes, (entry) => take(entry.key, entry.value, entry.sequence)));
  }
  for (const name of logs) {
    const bytes = await load(name);
    await inFile(name, async () => {
      for (const record of logRecords(bytes)) for (const op of batchOperations(record)) take(op.key, op.value, op.sequence);
    });
  }
  const values = new Map<string, Uint8Array>();
  for (const [key, { value }] of newest) if (value) values.set(key, value);
  return values;
}

/** Names the file in a Corruption found while reading it. */
async function inFile<T>(name: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof Corruption) throw new Corruption(`${name}: ${error.message}`);
    throw error;
  }
}

/** A whole file, refused past `max` bytes; a file that went missing is a compaction in flight, unless it is CURRENT. */
async function readBounded(dir: string, name: string, max: number, mayVanish = true): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(join(dir, name), "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    if (mayVanish) throw new FileVanished(`${name} went missing`);
    throw new Corruption(`there is no ${name} file`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Corruption(`${name} is not a file`);
    if (stat.size > max) throw new Corruption(`${name} has ${stat.size} bytes, more than the ${max} allowed`);
    const buffer = Buffer.alloc(stat.size);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}
