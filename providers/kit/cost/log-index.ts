import type { TextStore } from "../../../ports/text-store.js";
import type { CountedSums } from "./counted-sums.js";
import { tryJson } from "../index.js";
import { localDay } from "./days.js";
import { AMOUNTS, QUARTER_MS, type Amounts } from "./log-entry.js";

/**
 * What an agent's log files have added up to so far, kept between runs in cache files: a small
 * summary (each file's size and time; all files' sums per local day and, for the last days, per
 * quarter hour, without sessions) that is all an unchanged tree needs, and each file's own sums
 * (per quarter hour and session), read position and reading state, read only when some file
 * changed, the time zone did, or sessions are asked for. The records grow with the logs, so they
 * are split by a hash of the path into as many entries (shards) as keep each well under the
 * store's cap on an entry (16 MB); a shard that is missing, damaged or from another save loses
 * only its own files' records (read again).
 */

/** Per quarter hour (`quarterOf`) or per local day, per row (`rowKey`): the amounts of `log-entry.ts`. */
export type Sums = Record<string, Record<string, Amounts>>;

/** Quarter-hour sums are kept in the summary this far back (a provider's window is 5 hours; a week leaves room). */
const RECENT_MS = 8 * 86_400_000;

/** Each file's requests without both ids, summed per quarter hour and row: `[quarter, row, ...amounts]` each, flat. */
export const SUM_WIDTH = 2 + AMOUNTS;
/**
 * A request with a message id and request id, under a hash of the two (`[hash, quarter, row,
 * sidechain, ...amounts]` each, flat): kept per file so a later chunk of the same answer (in this
 * file, read now or in a later run) replaces it, and one answer copied into another file (a
 * resumed session, a sub-agent's replay) counts once across files.
 */
export const KEYED_WIDTH = 4 + AMOUNTS;
/** A row's index is below this in a file's record: `quarter * ROW_SPAN + row` is one number. */
export const ROW_SPAN = 2 ** 26;

export interface FileRecord {
  size: number;
  mtimeMs: number;
  /** Where the next read starts: after the last whole line. */
  offset: number;
  /** The file's first bytes (base64): a file rewritten in place reads differently here and is read again. */
  head: string;
  /** The rows (`rowKey`) the file's requests are counted under, each once: the entries hold an index here. */
  rows: string[];
  /** Flat numbers (SUM_WIDTH each): cheap to keep, to move between threads and to go through, as they are many. */
  sums: Float64Array;
  /** KEYED_WIDTH each. */
  keyed: Float64Array;
  /** Lines that were not counted: not JSON, not an object, counts that are not whole non-negative numbers, too long. */
  skipped: number;
  /** 1 when the file ends in a line that is not whole JSON yet: counted as skipped until it is. */
  partial: number;
  /** The reader's state after `offset` (Codex: the current model and totals). */
  state?: unknown;
}

interface Summary {
  version: number;
  prices: string;
  /** The zone its days were cut in. */
  zone: string;
  /** Written in both files: a pair that does not match is not trusted. */
  generation: string;
  /** How many entries the records are split into. */
  shards: number;
  stamps: Record<string, [size: number, mtimeMs: number]>;
  days: Sums;
  recent: Sums;
  skipped: number;
}

/** What the summary holds: all an unchanged tree needs. */
export interface IndexSums {
  days: Sums;
  recent: Sums;
  skipped: number;
}

export interface LogIndex extends IndexSums {
  stamps: Summary["stamps"];
  /** How many shards the kept records were split into (0 when none are known). */
  shards: number;
  /** Each file's record; none when they are missing or do not belong to the summary. */
  records(): Promise<Record<string, FileRecord>>;
}

const VERSION = 8;
const summaryKey = (agent: string) => `cost-logs/${agent}`;
const shardKey = (agent: string, shard: number) => `cost-logs/${agent}-files-${shard}`;
/** Where the records were kept whole, before they were split (removed at the next save). */
const legacyKey = (agent: string) => `cost-logs/${agent}-files`;

/** A shard's size aimed at: a quarter of the store's 16 MB cap, so an unlucky hash spread stays under it. */
export const SHARD_BYTES = 4 * 1024 * 1024;
/** Bounds the number of files the records may be split into (4 GB of records). */
const MAX_SHARDS = 1024;

/** The shard a file's record is kept in: FNV-1a of its path. */
function shardOf(path: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % shards;
}

/** The kept index of `agent` when it was made with these prices in this zone and holds only sane numbers; else an empty one (its records still serve). */
export async function loadIndex(store: TextStore, agent: string, prices: string, zone: string): Promise<LogIndex> {
  const value = tryJson((await store.read(summaryKey(agent)).catch(() => null)) ?? "") as Partial<Summary> | null;
  const shards = shardCount(value?.shards);
  const usable =
    value !== null &&
    value.version === VERSION &&
    value.prices === prices &&
    typeof value.generation === "string" &&
    shards > 0 &&
    isCount(value.skipped) &&
    isMap(value.stamps) &&
    Object.values(value.stamps).every((s) => Array.isArray(s) && s.length === 2 && s.every((n) => typeof n === "number")) &&
    isSums(value.days) &&
    isSums(value.recent);
  // each shard checked on its own: one from another save, or holding a file that hashes elsewhere, is not used
  const readShard = async (shard: number, count: number) => {
    const kept = tryJson((await store.read(shardKey(agent, shard)).catch(() => null)) ?? "") as {
      generation?: unknown;
      files?: unknown;
    } | null;
    if (kept === null || typeof value?.generation !== "string" || kept.generation !== value.generation || !isMap(kept.files)) return {};
    return Object.keys(kept.files).every((path) => shardOf(path, count) === shard) ? saneRecords(kept.files) : {};
  };
  const records = async (): Promise<Record<string, FileRecord>> =>
    Object.assign({}, ...(await Promise.all(Array.from({ length: shards }, (_, shard) => readShard(shard, shards)))));
  // another zone (or a damaged summary): no stamps, so every file is looked at, and its record (if sane) used as it is
  if (!usable || value.zone !== zone)
    return {
      stamps: {},
      shards,
      days: {},
      recent: {},
      skipped: 0,
      records: value?.version === VERSION && value.prices === prices ? records : async () => ({}),
    };
  return {
    stamps: value.stamps as Summary["stamps"],
    shards,
    days: value.days as Sums,
    recent: value.recent as Sums,
    skipped: value.skipped as number,
    records,
  };
}

/** Keeps the records and their summary; returns what the summary holds. */
export async function saveIndex(
  store: TextStore,
  agent: string,
  prices: string,
  zone: string,
  records: Record<string, FileRecord>,
  /** The records' requests, per row without its session (`withoutSession`). */
  counted: CountedSums,
  now: number,
  /** `keptShards`: how many the loaded index had (those past the new count are removed); `shardBytes`: the size aimed at (tests lower it). */
  { keptShards = 0, shardBytes = SHARD_BYTES }: { keptShards?: number; shardBytes?: number } = {},
): Promise<IndexSums> {
  const days: Sums = {};
  const recent: Sums = {};
  let skipped = 0;
  for (const record of Object.values(records)) skipped += record.skipped + record.partial;
  // the last days before now, or before the newest request when the logs end earlier
  const from = Math.floor((Math.min(now, (counted.newest + 1) * QUARTER_MS) - RECENT_MS) / QUARTER_MS);
  const dayOf = new Map<number, string>();
  counted.each((quarter, row, amounts, at) => {
    let day = dayOf.get(quarter);
    if (day === undefined) dayOf.set(quarter, (day = localDay(quarter * QUARTER_MS)));
    addAmounts(days, day, row, amounts, at);
    if (quarter >= from) addAmounts(recent, quarter, row, amounts, at);
  });
  const generation = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const stamps = Object.fromEntries(Object.entries(records).map(([path, r]) => [path, [r.size, r.mtimeMs]]));
  try {
    const shards = shardTexts(records, generation, shardBytes);
    // the records first: a summary is never newer than the records it describes
    await Promise.all(shards.map((text, shard) => store.write(shardKey(agent, shard), text)));
    await store.write(
      summaryKey(agent),
      JSON.stringify({ version: VERSION, prices, zone, generation, shards: shards.length, stamps, days, recent, skipped }),
    );
    // what the last save kept beyond this one's shards, and the records kept whole before they were split
    const stale = Math.max(0, Math.min(keptShards, MAX_SHARDS) - shards.length);
    await Promise.all([
      store.remove(legacyKey(agent)),
      ...Array.from({ length: stale }, (_, i) => store.remove(shardKey(agent, shards.length + i))),
    ]);
  } catch {
    // a cache that cannot be written costs the next run time, not this one its numbers
  }
  return { days, recent, skipped };
}

/** The records as the texts of their shards: as many as keep each near `shardBytes`. */
function shardTexts(records: Record<string, FileRecord>, generation: string, shardBytes: number): string[] {
  const parts = Object.entries(records).map(([path, record]) => [path, `${JSON.stringify(path)}:${recordText(record)}`] as const);
  const bytes = parts.reduce((sum, [, part]) => sum + part.length, 0);
  const count = Math.min(MAX_SHARDS, Math.max(1, Math.ceil(bytes / shardBytes)));
  const shards = Array.from({ length: count }, () => [] as string[]);
  for (const [path, part] of parts) shards[shardOf(path, count)]?.push(part);
  return shards.map((list) => `{"generation":${JSON.stringify(generation)},"files":{${list.join(",")}}}`);
}

/** Each record's JSON, made once: by the thread that read its file, as it read it (a cold scan's records are megabytes). */
const texts = new WeakMap<FileRecord, string>();

export function recordText(record: FileRecord): string {
  let text = texts.get(record);
  if (text === undefined) {
    const { sums, keyed, ...rest } = record;
    texts.set(record, (text = JSON.stringify({ ...rest, sums: packEntries(sums), keyed: packEntries(keyed) })));
  }
  return text;
}

/** `text` is `record`'s JSON (made by another thread). */
export function knownText(record: FileRecord, text: string): void {
  texts.set(record, text);
}

/** Adds one row's amounts (from `amounts[at]` on) to a quarter hour's or a day's. */
export function addAmounts(sums: Sums, quarter: number | string, row: string, amounts: ArrayLike<number>, at = 0): void {
  const rows = (sums[quarter] ??= {});
  const into = (rows[row] ??= new Array<number>(AMOUNTS).fill(0));
  for (let i = 0; i < AMOUNTS; i++) into[i] = (into[i] as number) + (amounts[at + i] ?? 0);
}

/** A kept shard count when it is one; else 0 (no records). */
const shardCount = (n: unknown): number => (isCount(n) && n >= 1 && n <= MAX_SHARDS ? n : 0);
const isCount = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
const isAmounts = (a: unknown): boolean => Array.isArray(a) && a.length === AMOUNTS && a.every(isCount);
const isMap = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isSums = (sums: unknown): sums is Sums =>
  isMap(sums) && Object.values(sums).every((m) => isMap(m) && Object.values(m).every(isAmounts));

/** The records that hold only sane values: a damaged one is dropped, and its file read again. */
function saneRecords(files: Record<string, unknown>): Record<string, FileRecord> {
  const sane: Record<string, FileRecord> = {};
  for (const [path, r] of Object.entries(files)) {
    if (
      !isMap(r) ||
      !isCount(r.size) ||
      typeof r.mtimeMs !== "number" ||
      !isCount(r.offset) ||
      r.offset > r.size ||
      typeof r.head !== "string" ||
      !isCount(r.skipped) ||
      (r.partial !== 0 && r.partial !== 1) ||
      !Array.isArray(r.rows) ||
      !r.rows.every((row) => typeof row === "string")
    )
      continue;
    const sums = entriesOf(r.sums, SUM_WIDTH, 1, r.rows.length);
    const keyed = entriesOf(r.keyed, KEYED_WIDTH, 2, r.rows.length);
    if (sums && keyed) sane[path] = { ...(r as unknown as FileRecord), sums, keyed };
  }
  return sane;
}

/**
 * A record's numbers as text: each a varint (seven bits a byte, the high bit set on all but the
 * last), all in base64. They are whole, mostly small (counts, a quarter hour, a row) and only the
 * answers' hashes take eight bytes: a third of their bytes as doubles, and a JSON list of them took
 * ten times as long to write and to read.
 */
export function packEntries(entries: Float64Array): string {
  const bytes = new Uint8Array(entries.length * 8);
  let at = 0;
  for (let i = 0; i < entries.length; i++) {
    let n = entries[i] as number;
    // by 32-bit shifts (a division per byte took twice as long): past 32 bits (an answer's hash), the
    // low 28 bits first, then what is left of the low half above the high half
    if (n >= 2 ** 32) {
      let low = n >>> 0;
      const high = (n - low) / 2 ** 32;
      for (let k = 0; k < 4; k++) {
        bytes[at++] = (low & 127) | 128;
        low >>>= 7;
      }
      n = low | (high << 4);
    }
    while (n >= 128) {
      bytes[at++] = (n & 127) | 128;
      n >>>= 7;
    }
    bytes[at++] = n;
  }
  return Buffer.from(bytes.buffer, 0, at).toString("base64");
}

/** packEntries' numbers; null when the text is not that (a number cut short, or longer than a safe integer). */
export function unpackEntries(text: string): Float64Array | null {
  const bytes = Buffer.from(text, "base64");
  let count = 0;
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] as number) < 128) count++;
  if (bytes.length > 0 && (bytes[bytes.length - 1] as number) >= 128) return null;
  const entries = new Float64Array(count);
  let at = 0;
  for (let i = 0; i < count; i++) {
    let n = 0;
    let scale = 1;
    let b = 128;
    for (let k = 0; b >= 128; k++) {
      if (k === 8) return null;
      b = bytes[at++] as number;
      n += (b & 127) * scale;
      scale *= 128;
    }
    entries[i] = n;
  }
  return entries;
}

/** The numbers of `text` (packEntries') when they are whole non-negative numbers, `width` a piece, each naming a row the file holds (at `rowAt`) and a keyed one's sidechain 0 or 1; else null. */
function entriesOf(text: unknown, width: number, rowAt: number, rows: number): Float64Array | null {
  const entries = typeof text === "string" ? unpackEntries(text) : null;
  if (entries === null || entries.length % width !== 0) return null;
  for (let i = 0; i < entries.length; i++) if (!isCount(entries[i])) return null;
  for (let i = 0; i < entries.length; i += width) {
    if ((entries[i + rowAt] as number) >= rows) return null;
    if (width === KEYED_WIDTH && (entries[i + 3] as number) > 1) return null;
  }
  return entries;
}
