import { basename, relative } from "node:path";
import { filesUnder, providerCache, scanLines, type FoundFile } from "../index.js";
import { openRegularFile } from "../../../adapters/fs/regular-file.js";
import type { Environment } from "../../../ports/environment.js";
import { CLAUDE_USAGE_MARK, claudeEntry, claudeLogRoots, isClaudeLog } from "./claude-logs.js";
import { CODEX_MARK, codexEntry, codexLogRoots, freshCodexState, isCodexLog, mayBeCodexEvent, type CodexState } from "./codex-logs.js";
import { quarterOf, rowKey, type LogEntry, type Row } from "./log-entry.js";
import { timeZone } from "./days.js";
import { addAmounts, allSums, loadIndex, saveIndex, type FileRecord, type IndexSums, type KeyedEntry, type Sums } from "./log-index.js";
import { prices, type Agent } from "./prices.js";

/** Brings an agent's log index up to date: unchanged files are not read, grown ones only from where the last read stopped. */

/** How one agent's logs are found and read. */
interface AgentLogs {
  roots(env: Environment): string[];
  accept(name: string): boolean;
  /** Only lines holding this are looked at. */
  holding: string;
  mayMatter(raw: string): boolean;
  /** What a parsed line adds; `state` is the reader's, carried from line to line and kept with the file's record. */
  entry(line: unknown, raw: string, state: unknown, session: string): LogEntry | null | "bad";
  freshState(): unknown;
  /** The roots are copies of one tree (Codex's sessions/ and archived_sessions/): a file under the same name in both is one. */
  oneTree?: boolean;
}

const AGENT_LOGS: Record<Agent, AgentLogs> = {
  claude: {
    roots: claudeLogRoots,
    accept: isClaudeLog,
    holding: CLAUDE_USAGE_MARK,
    mayMatter: () => true,
    entry: (line, raw, _state, session) => claudeEntry(line, raw, session),
    freshState: () => null,
  },
  codex: {
    roots: codexLogRoots,
    accept: (name) => isCodexLog(name) && name.startsWith("rollout-"),
    holding: CODEX_MARK,
    mayMatter: mayBeCodexEvent,
    entry: (line, _raw, state, session) => codexEntry(line, state as CodexState, session),
    freshState: freshCodexState,
    oneTree: true,
  },
};

export const logRoots = (agent: Agent, env: Environment): string[] => AGENT_LOGS[agent].roots(env);

const PARALLEL_FILES = 4;
const HEAD_BYTES = 64;

export interface LogScan extends IndexSums {
  agent: Agent;
  /** Every file's requests per quarter hour, row and session (read from the per-file records: only for `--by session`). */
  sessions(): Promise<Sums>;
  /** False when the scan was stopped (the time budget): some files are counted as of an earlier run, or not at all. */
  complete: boolean;
  filesRead: number;
  bytesRead: number;
  /** Files (or folders) that could not be read: permissions, removed while scanning. */
  unreadable: number;
}

export interface ScanOptions {
  signal?: AbortSignal;
  /** Told after each file read (not for unchanged ones): how many of how many. */
  onProgress?: (done: number, total: number) => void;
  /** The size of a shard of the kept records aimed at (log-index.ts; tests lower it). */
  shardBytes?: number;
}

/** The prices the index's costs were computed with: a change of table (or a fetched one) rebuilds it. */
function pricesId(): string {
  const table = prices();
  let hash = 0x811c9dc5;
  for (const char of JSON.stringify(table.models)) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return `${table.asOf}:${hash.toString(36)}`;
}

export async function scanLogs(agent: Agent, env: Environment, options: ScanOptions = {}): Promise<LogScan> {
  const logs = AGENT_LOGS[agent];
  const store = providerCache(env);
  const zone = timeZone();
  const index = await loadIndex(store, agent, pricesId(), zone);
  const sessions = (records: () => Promise<Record<string, FileRecord>>) => async () => allSums(await records());
  const scan: LogScan = {
    agent,
    days: index.days,
    recent: index.recent,
    skipped: index.skipped,
    sessions: sessions(index.records),
    complete: true,
    filesRead: 0,
    bytesRead: 0,
    unreadable: 0,
  };
  const found = await findFiles(logs, env, scan);
  const unchanged = (file: FoundFile) => index.stamps[file.path]?.[0] === file.size && index.stamps[file.path]?.[1] === file.mtimeMs;
  if (found.length === Object.keys(index.stamps).length && found.every(unchanged)) return scan;

  const kept = await index.records();
  const records: Record<string, FileRecord> = {};
  const queue = [...found];
  const changed = found.filter((file) => !(kept[file.path]?.size === file.size && kept[file.path]?.mtimeMs === file.mtimeMs)).length;
  let done = 0;
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const old = kept[file.path];
      if (old && old.size === file.size && old.mtimeMs === file.mtimeMs) {
        records[file.path] = old;
        continue;
      }
      try {
        options.signal?.throwIfAborted();
        const grown = old && file.size >= old.offset && (await headOf(file.path)) === old.head ? old : null;
        const { record, bytesRead } = await readFile(logs, file, grown, options.signal);
        records[file.path] = record;
        scan.filesRead++;
        scan.bytesRead += bytesRead;
      } catch {
        // stopped by the budget, or gone or locked since the walk: counted as of the last run, if ever
        if (options.signal?.aborted) scan.complete = false;
        else scan.unreadable++;
        if (old) records[file.path] = old;
      }
      options.onProgress?.(++done, changed);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_FILES }, worker));
  // kept even when the scan stopped: the next run goes on from there
  const saved = await saveIndex(store, agent, pricesId(), zone, records, Date.now(), {
    keptShards: index.shards,
    shardBytes: options.shardBytes,
  });
  return { ...scan, ...saved, sessions: sessions(async () => records) };
}

/** The agent's log files; a root or folder that cannot be listed is counted, not fatal. */
async function findFiles(logs: AgentLogs, env: Environment, scan: LogScan): Promise<FoundFile[]> {
  const roots = logs.roots(env);
  const list = async (dirs: string[]) => {
    try {
      return await filesUnder(dirs, logs.accept, () => scan.unreadable++);
    } catch {
      scan.unreadable++;
      return [];
    }
  };
  if (!logs.oneTree) return list(roots);
  const found: FoundFile[] = [];
  const seen = new Set<string>();
  for (const root of roots) {
    for (const file of await list([root])) {
      const name = relative(root, file.path);
      if (seen.has(name)) continue;
      seen.add(name);
      found.push(file);
    }
  }
  return found;
}

async function headOf(path: string): Promise<string> {
  const { handle } = await openRegularFile(path);
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString("base64");
  } finally {
    await handle.close();
  }
}

/** A message id + request id as a short text (two 32-bit FNV-1a hashes): the records keep one per answer. */
function keyHash(key: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  // the 64 bits six at a time in base64url's letters: a third of the time of two toString(36)
  const d = (bits: number) => DIGITS[bits & 63] as number;
  return String.fromCharCode(
    d(a >>> 26),
    d(a >>> 20),
    d(a >>> 14),
    d(a >>> 8),
    d(a >>> 2),
    d((a << 4) | (b >>> 28)),
    d(b >>> 22),
    d(b >>> 16),
    d(b >>> 10),
    d(b >>> 4),
    d(b),
  );
}

const DIGITS = Array.from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", (char) => char.charCodeAt(0));

/** Reads a file from the start, or from where `resume` stopped, adding what it finds to a copy of `resume`'s sums. */
async function readFile(
  logs: AgentLogs,
  file: FoundFile,
  resume: FileRecord | null,
  signal?: AbortSignal,
): Promise<{ record: FileRecord; bytesRead: number }> {
  const sums: Sums = resume ? structuredClone(resume.sums) : {};
  const state = resume?.state !== undefined ? structuredClone(resume.state) : logs.freshState();
  const session = basename(file.path)
    .replace(/\.jsonl$/i, "")
    .replace(/^rollout-/, "");
  let skipped = resume?.skipped ?? 0;
  let partial = 0;
  // the last chunk of an answer wins: a streamed answer's later chunks carry its final counts
  const keyed: Record<string, KeyedEntry> = resume ? structuredClone(resume.keyed) : {};
  const rows = resume ? [...resume.rows] : [];
  const rowIndex = new Map(rows.map((row, i) => [row, i]));
  // a file's requests come under a few rows, mostly the same as the one before: its text is made (and hashed) once a run
  let lastRow: Row | null = null;
  let lastKey = "";
  const keyOf = (row: Row) => {
    if (lastRow === null || row.backend !== lastRow.backend || row.model !== lastRow.model || row.session !== lastRow.session)
      [lastRow, lastKey] = [row, rowKey(row)];
    return lastKey;
  };
  const add = (entry: LogEntry) => {
    const quarter = quarterOf(entry.at);
    const row = keyOf(entry.row);
    if (entry.key === null) return addAmounts(sums, quarter, row, entry.amounts);
    let index = rowIndex.get(row);
    if (index === undefined) rowIndex.set(row, (index = rows.push(row) - 1));
    const [input, output, cacheWrite, cacheRead, nanos, requests, unpriced] = entry.amounts as number[];
    keyed[keyHash(entry.key)] = [
      quarter,
      index,
      entry.sidechain ? 1 : 0,
      input!,
      output!,
      cacheWrite!,
      cacheRead!,
      nanos!,
      requests!,
      unpriced!,
    ];
  };
  const scan = await scanLines(file.path, {
    from: resume?.offset ?? 0,
    headBytes: HEAD_BYTES,
    holding: logs.holding,
    accept: logs.mayMatter,
    signal,
    onLine(text, complete) {
      let line: unknown;
      try {
        line = JSON.parse(text);
      } catch {
        // a last line still being written is read again next time; a whole one that is not JSON is skipped
        if (complete) skipped++;
        else partial = 1;
        return false;
      }
      // a line that holds the mark but is not an object is not a log line: skipped, and said
      const entry = typeof line === "object" && line !== null && !Array.isArray(line) ? logs.entry(line, text, state, session) : "bad";
      if (entry === "bad") skipped++;
      else if (entry) add(entry);
      return true;
    },
  });
  skipped += scan.tooLong;
  return {
    record: {
      size: Math.max(file.size, scan.end),
      mtimeMs: file.mtimeMs,
      offset: scan.end,
      head: resume?.head ?? scan.head?.toString("base64") ?? "",
      sums,
      keyed,
      rows,
      skipped,
      partial,
      ...(state !== null ? { state } : {}),
    },
    bytesRead: scan.bytesRead,
  };
}
