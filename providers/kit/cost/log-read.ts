import { closeSync, readSync } from "node:fs";
import { basename } from "node:path";
import { openRegularFileSync } from "../../../adapters/fs/regular-file.js";
import { scanLines, type FoundFile } from "../line-files.js";
import { claudeBytesEntry } from "./claude-bytes.js";
import { CLAUDE_USAGE_MARK, claudeEntry } from "./claude-logs.js";
import { CODEX_MARK, codexEntry, freshCodexState, mayBeCodexEvent, type CodexState } from "./codex-logs.js";
import type { LineOutcome, RequestSink } from "./log-entry.js";
import type { FileRecord } from "./log-index.js";
import type { Agent } from "./prices.js";
import { RecordBuilder } from "./record-builder.js";

/** Reads one log file (whole, or from where its last read stopped) into its record: what each agent's lines add. */

interface LineReader {
  /** Only lines holding this are looked at. */
  holding: string;
  /** A cheap look before the parse, for a reader whose mark other lines hold too. */
  mayMatter?: (raw: string) => boolean;
  /**
   * Puts what a parsed line adds in `into`; `state` is the reader's, carried from line to line and
   * kept with the file's record. `exact` false: the line was decoded as Latin-1 and is not all ASCII,
   * so a text past ASCII is not the written one ("again": read it as UTF-8).
   */
  read(line: object, raw: string, state: unknown, session: string, into: RequestSink, exact: boolean): LineOutcome;
  /** What a whole line adds, read from its bytes (`view[start, end)`) without a parse; null when it must be parsed and `read`. */
  readBytes?(view: Buffer, start: number, end: number, session: string, into: RequestSink): LineOutcome | null;
  freshState(): unknown;
}

const READERS: Record<Agent, LineReader> = {
  claude: {
    holding: CLAUDE_USAGE_MARK,
    read: (line, raw, _state, session, into, exact) => claudeEntry(line, raw, session, into, exact),
    readBytes: claudeBytesEntry,
    freshState: () => null,
  },
  codex: {
    holding: CODEX_MARK,
    mayMatter: mayBeCodexEvent,
    read: (line, _raw, state, session, into, exact) => codexEntry(line, state as CodexState, session, into, exact),
    freshState: freshCodexState,
  },
};

/** What a line's text adds: "invalid" when it is not JSON, "bad" when it is not an object (not a log line: skipped, and said). */
function readLine(
  reader: LineReader,
  text: string,
  exact: boolean,
  state: unknown,
  session: string,
  into: RequestSink,
): LineOutcome | "invalid" {
  let line: unknown;
  try {
    line = JSON.parse(text);
  } catch {
    return "invalid";
  }
  return typeof line === "object" && line !== null && !Array.isArray(line) ? reader.read(line, text, state, session, into, exact) : "bad";
}

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
  const record = new RecordBuilder(resume);
  const readBytes = reader.readBytes;
  const scan = await scanLines(file.path, {
    from: resume?.offset ?? 0,
    headBytes: HEAD_BYTES,
    holding: reader.holding,
    accept: reader.mayMatter,
    signal,
    latin1: true,
    onBytes: readBytes
      ? (view, start, end) => {
          const outcome = readBytes(view, start, end, session, record);
          if (outcome === null) return false;
          if (outcome === "bad") skipped++;
          return true;
        }
      : undefined,
    onLine(text, complete, exact) {
      let outcome = readLine(reader, text, exact, state, session, record);
      // a text it uses is past ASCII: the line's UTF-8 text (its bytes back from Latin-1) read instead
      if (outcome === "again") outcome = readLine(reader, Buffer.from(text, "latin1").toString("utf8"), true, state, session, record);
      if (outcome === "invalid") {
        // a last line still being written is read again next time; a whole one that is not JSON is skipped
        if (complete) skipped++;
        else partial = 1;
        return false;
      }
      if (outcome === "bad") skipped++;
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
      ...record.numbers(),
      skipped,
      partial,
      ...(state !== null ? { state } : {}),
    },
    bytesRead: scan.bytesRead,
  };
}
