import { closeSync, readSync } from "node:fs";
import { basename } from "node:path";
import { openRegularFileSync } from "../../../adapters/fs/regular-file.js";
import { scanLines, type FoundFile } from "../line-files.js";
import { CLAUDE_USAGE_MARK, claudeEntry } from "./claude-logs.js";
import { CODEX_MARK, codexEntry, freshCodexState, mayBeCodexEvent, type CodexState } from "./codex-logs.js";
import { AMOUNTS, quarterOf, rowKey, type LogEntry, type Row } from "./log-entry.js";
import { KEYED_WIDTH, ROW_SPAN, SUM_WIDTH, type FileRecord } from "./log-index.js";
import type { Agent } from "./prices.js";

/** Reads one log file (whole, or from where its last read stopped) into its record: what each agent's lines add. */

interface LineReader {
  /** Only lines holding this are looked at. */
  holding: string;
  mayMatter(raw: string): boolean;
  /** What a parsed line adds; `state` is the reader's, carried from line to line and kept with the file's record. */
  entry(line: unknown, raw: string, state: unknown, session: string): LogEntry | null | "bad";
  freshState(): unknown;
}

const READERS: Record<Agent, LineReader> = {
  claude: {
    holding: CLAUDE_USAGE_MARK,
    mayMatter: () => true,
    entry: (line, raw, _state, session) => claudeEntry(line, raw, session),
    freshState: () => null,
  },
  codex: {
    holding: CODEX_MARK,
    mayMatter: mayBeCodexEvent,
    entry: (line, _raw, state, session) => codexEntry(line, state as CodexState, session),
    freshState: freshCodexState,
  },
};

const HEAD_BYTES = 64;

export interface FileRead {
  record: FileRecord;
  bytesRead: number;
}

/** Reads `file` from where `old` stopped when it only grew since (same first bytes), else from the start. */
export async function readLogFile(agent: Agent, file: FoundFile, old: FileRecord | null, signal?: AbortSignal): Promise<FileRead> {
  const grown = old && file.size >= old.offset && headOf(file.path) === old.head ? old : null;
  return readFrom(READERS[agent], file, grown, signal);
}

function headOf(path: string): string {
  const { fd } = openRegularFileSync(path);
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    return buffer.subarray(0, readSync(fd, buffer, 0, HEAD_BYTES, 0)).toString("base64");
  } finally {
    closeSync(fd);
  }
}

/** Reads a file from the start, or from where `resume` stopped, adding what it finds to a copy of `resume`'s. */
async function readFrom(reader: LineReader, file: FoundFile, resume: FileRecord | null, signal?: AbortSignal): Promise<FileRead> {
  const state = resume?.state !== undefined ? structuredClone(resume.state) : reader.freshState();
  const session = basename(file.path)
    .replace(/\.jsonl$/i, "")
    .replace(/^rollout-/, "");
  let skipped = resume?.skipped ?? 0;
  let partial = 0;
  const rows = resume ? [...resume.rows] : [];
  const sums = resume ? Array.from(resume.sums) : [];
  const keyed = resume ? Array.from(resume.keyed) : [];
  const rowIndex = new Map(rows.map((row, i) => [row, i]));
  const sumAt = new Map<number, number>();
  for (let i = 0; i < sums.length; i += SUM_WIDTH) sumAt.set((sums[i] as number) * ROW_SPAN + (sums[i + 1] as number), i);
  // the last chunk of an answer wins: a streamed answer's later chunks carry its final counts
  const keyedAt = new Map<number, number>();
  for (let i = 0; i < keyed.length; i += KEYED_WIDTH) keyedAt.set(keyed[i] as number, i);
  // a file's requests come under a few rows, often in turn (several models in one session): found by model, then checked whole
  const byModel = new Map<string, [Row, number]>();
  const indexOf = (row: Row) => {
    const seen = byModel.get(row.model);
    if (seen && seen[0].backend === row.backend && seen[0].session === row.session) return seen[1];
    const key = rowKey(row);
    let index = rowIndex.get(key);
    if (index === undefined && rows.length < ROW_SPAN) rowIndex.set(key, (index = rows.push(key) - 1));
    byModel.set(row.model, [row, index ?? -1]);
    return index ?? -1;
  };
  const add = (entry: LogEntry): boolean => {
    const quarter = quarterOf(entry.at);
    const row = indexOf(entry.row);
    if (row < 0) return false;
    const amounts = entry.amounts;
    if (entry.key === null) {
      let at = sumAt.get(quarter * ROW_SPAN + row);
      if (at === undefined) {
        sumAt.set(quarter * ROW_SPAN + row, (at = sums.length));
        sums.push(quarter, row, 0, 0, 0, 0, 0, 0, 0);
      }
      for (let i = 0; i < AMOUNTS; i++) sums[at + 2 + i] = (sums[at + 2 + i] as number) + (amounts[i] as number);
      return true;
    }
    const hash = entry.key;
    let at = keyedAt.get(hash);
    if (at === undefined) keyedAt.set(hash, (at = keyed.push(hash, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) - KEYED_WIDTH));
    keyed[at + 1] = quarter;
    keyed[at + 2] = row;
    keyed[at + 3] = entry.sidechain ? 1 : 0;
    for (let i = 0; i < AMOUNTS; i++) keyed[at + 4 + i] = amounts[i] as number;
    return true;
  };
  const scan = await scanLines(file.path, {
    from: resume?.offset ?? 0,
    headBytes: HEAD_BYTES,
    holding: reader.holding,
    accept: reader.mayMatter,
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
      const entry = typeof line === "object" && line !== null && !Array.isArray(line) ? reader.entry(line, text, state, session) : "bad";
      if (entry === "bad" || (entry && !add(entry))) skipped++;
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
      rows,
      sums: Float64Array.from(sums),
      keyed: Float64Array.from(keyed),
      skipped,
      partial,
      ...(state !== null ? { state } : {}),
    },
    bytesRead: scan.bytesRead,
  };
}
