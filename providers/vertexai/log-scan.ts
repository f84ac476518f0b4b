import { filesUnder, providerCache, scanLines, type FoundFile } from "../kit/index.js";
import type { Environment } from "../../ports/environment.js";
import { claudeLogRoots, isLogFile, mayBeVertex, USAGE_MARK, vertexEntry, type LogEntry } from "./claude-logs.js";
import { timeZone } from "./days.js";
import { addAmounts, loadIndex, saveIndex, type DaySums, type FileRecord, type TailEntry } from "./log-index.js";

/** Brings the index of the Claude Code logs up to date: unchanged files are not read, grown ones only from where the last read stopped. */

const TAIL_ENTRIES = 8;
const PARALLEL_FILES = 4;

export interface LogScan {
  /** The Vertex requests of every file, per day and model. */
  days: DaySums;
  /** False when the scan was stopped (the time budget): some files are counted as of an earlier run, or not at all. */
  complete: boolean;
  filesRead: number;
  bytesRead: number;
  /** Files that could not be read (permissions, removed while scanning). */
  unreadable: number;
}

export async function scanVertexLogs(env: Environment, signal?: AbortSignal): Promise<LogScan> {
  const store = providerCache(env);
  const zone = timeZone();
  const index = await loadIndex(store, zone);
  const found = await filesUnder(claudeLogRoots(env), isLogFile);
  const scan: LogScan = { days: index.days, complete: true, filesRead: 0, bytesRead: 0, unreadable: 0 };
  const unchanged = (file: FoundFile) => index.stamps[file.path]?.[0] === file.size && index.stamps[file.path]?.[1] === file.mtimeMs;
  if (found.length === Object.keys(index.stamps).length && found.every(unchanged)) return scan;

  const kept = await index.records();
  const records: Record<string, FileRecord> = {};
  const queue = [...found];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const old = kept[file.path];
      if (old && old.size === file.size && old.mtimeMs === file.mtimeMs) {
        records[file.path] = old;
        continue;
      }
      try {
        signal?.throwIfAborted();
        const grown = old && file.size > old.size && old.offset <= file.size ? old : null;
        const { record, bytesRead } = await readFile(file, grown, signal);
        records[file.path] = record;
        scan.filesRead++;
        scan.bytesRead += bytesRead;
      } catch {
        // stopped by the budget, or gone or locked since the walk: counted as of the last run, if ever
        if (signal?.aborted) scan.complete = false;
        else scan.unreadable++;
        if (old) records[file.path] = old;
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_FILES }, worker));
  // kept even when the scan stopped: the next run goes on from there
  scan.days = await saveIndex(store, zone, records);
  return scan;
}

/** Reads a file from the start, or from where `resume` stopped, adding what it finds to a copy of `resume`'s sums. */
async function readFile(
  file: FoundFile,
  resume: FileRecord | null,
  signal?: AbortSignal,
): Promise<{ record: FileRecord; bytesRead: number }> {
  const days: DaySums = resume ? structuredClone(resume.days) : {};
  // the last chunk of an answer wins: a streamed answer's later chunks carry its final counts
  const entries = new Map<string, { entry: LogEntry; counted: boolean }>();
  for (const [key, day, model, ...amounts] of resume?.tail ?? []) entries.set(key, { entry: { key, day, model, amounts }, counted: true });
  const add = (entry: LogEntry) => {
    if (entry.key === null) return addAmounts(days, entry.day, entry.model, entry.amounts);
    const earlier = entries.get(entry.key);
    if (earlier?.counted) addAmounts(days, earlier.entry.day, earlier.entry.model, earlier.entry.amounts, -1);
    entries.delete(entry.key);
    entries.set(entry.key, { entry, counted: false });
  };
  const scan = await scanLines(file.path, {
    from: resume?.offset ?? 0,
    holding: USAGE_MARK,
    accept: mayBeVertex,
    signal,
    onLine(text) {
      const entry = vertexEntry(text);
      if (entry) add(entry);
      return entry !== undefined;
    },
  });
  for (const { entry, counted } of entries.values()) if (!counted) addAmounts(days, entry.day, entry.model, entry.amounts);
  const tail = [...entries.values()]
    .slice(-TAIL_ENTRIES)
    .map(({ entry }): TailEntry => [entry.key as string, entry.day, entry.model, ...entry.amounts]);
  return { record: { size: file.size, mtimeMs: file.mtimeMs, offset: scan.end, days, tail }, bytesRead: scan.bytesRead };
}
