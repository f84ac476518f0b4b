import type { TextStore } from "../../ports/text-store.js";
import { tryJson } from "../kit/index.js";
import { PRICES_AS_OF } from "./prices.js";

/**
 * What the Claude Code log files have added up to so far, kept between runs in two cache files: a
 * small summary (each file's size and time, the sums of all files) that is all an unchanged tree
 * needs, and each file's own sums and read position, read only when some file changed.
 */

/** Per day, per model: input, output, cache write, cache read, cost in nanodollars, requests. */
export type DaySums = Record<string, Record<string, number[]>>;

const AMOUNTS = 6;

/** A recent keyed entry, kept so a chunk of the same answer written after the last read replaces it rather than adds to it. */
export type TailEntry = [key: string, day: string, model: string, ...amounts: number[]];

export interface FileRecord {
  size: number;
  mtimeMs: number;
  /** Where the next read starts: after the last whole line. */
  offset: number;
  days: DaySums;
  tail: TailEntry[];
}

interface Summary {
  version: number;
  zone: string;
  prices: string;
  /** Written in both files: a pair that does not match is not trusted. */
  generation: string;
  stamps: Record<string, [size: number, mtimeMs: number]>;
  days: DaySums;
}

export interface LogIndex {
  stamps: Summary["stamps"];
  days: DaySums;
  /** Each file's record; none when they are missing or do not belong to the summary. */
  records(): Promise<Record<string, FileRecord>>;
}

const SUMMARY_KEY = "cost-logs/vertexai";
const RECORDS_KEY = "cost-logs/vertexai-files";
const VERSION = 2;

/** The kept index when it was made in this zone with these prices and holds only sane numbers; else an empty one. */
export async function loadIndex(store: TextStore, zone: string): Promise<LogIndex> {
  const value = tryJson((await store.read(SUMMARY_KEY).catch(() => null)) ?? "") as Partial<Summary> | null;
  const usable =
    value !== null &&
    value.version === VERSION &&
    value.zone === zone &&
    value.prices === PRICES_AS_OF &&
    typeof value.generation === "string" &&
    isMap(value.stamps) &&
    Object.values(value.stamps).every((s) => Array.isArray(s) && s.length === 2 && s.every((n) => typeof n === "number")) &&
    isDaySums(value.days);
  if (!usable) return { stamps: {}, days: {}, records: async () => ({}) };
  return {
    stamps: value.stamps as Summary["stamps"],
    days: value.days as DaySums,
    async records() {
      const kept = tryJson((await store.read(RECORDS_KEY).catch(() => null)) ?? "") as { generation?: unknown; files?: unknown } | null;
      return kept !== null && kept.generation === value.generation && isRecordMap(kept.files) ? kept.files : {};
    },
  };
}

/** Keeps the records and their summary; returns the sums of all files. */
export async function saveIndex(store: TextStore, zone: string, records: Record<string, FileRecord>): Promise<DaySums> {
  const days: DaySums = {};
  for (const record of Object.values(records)) addSums(days, record.days);
  const generation = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const stamps = Object.fromEntries(Object.entries(records).map(([path, r]) => [path, [r.size, r.mtimeMs]]));
  try {
    // the records first: a summary is never newer than the records it describes
    await store.write(RECORDS_KEY, JSON.stringify({ generation, files: records }));
    await store.write(SUMMARY_KEY, JSON.stringify({ version: VERSION, zone, prices: PRICES_AS_OF, generation, stamps, days }));
  } catch {
    // a cache that cannot be written costs the next run time, not this one its numbers
  }
  return days;
}

/** Adds (or with -1 takes away) one model's amounts of one day. */
export function addAmounts(days: DaySums, day: string, model: string, amounts: readonly number[], sign: 1 | -1 = 1): void {
  const models = (days[day] ??= {});
  const sums = (models[model] ??= new Array<number>(AMOUNTS).fill(0));
  for (let i = 0; i < AMOUNTS; i++) sums[i] = Math.max(0, (sums[i] as number) + sign * (amounts[i] ?? 0));
}

function addSums(into: DaySums, days: DaySums): void {
  for (const [day, models] of Object.entries(days))
    for (const [model, amounts] of Object.entries(models)) addAmounts(into, day, model, amounts);
}

const isCount = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
const isAmounts = (a: unknown): boolean => Array.isArray(a) && a.length === AMOUNTS && a.every(isCount);
const isMap = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isDaySums = (days: unknown): days is DaySums =>
  isMap(days) && Object.values(days).every((m) => isMap(m) && Object.values(m).every(isAmounts));

function isRecordMap(files: unknown): files is Record<string, FileRecord> {
  if (!isMap(files)) return false;
  return Object.values(files).every(
    (r) =>
      isMap(r) &&
      isCount(r.size) &&
      typeof r.mtimeMs === "number" &&
      isCount(r.offset) &&
      isDaySums(r.days) &&
      Array.isArray(r.tail) &&
      r.tail.every(
        (t) => Array.isArray(t) && t.length === 3 + AMOUNTS && t.slice(0, 3).every((s) => typeof s === "string") && isAmounts(t.slice(3)),
      ),
  );
}
