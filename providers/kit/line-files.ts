import { isAscii } from "node:buffer";
import { closeSync, constants, readSync } from "node:fs";
import { open, readdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { setImmediate as turn } from "node:timers/promises";
import { openRegularFileSync } from "../../adapters/fs/regular-file.js";

/** Local log files a provider totals (JSON Lines): found under roots, read as a stream from where the last read stopped. */

export interface FoundFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** Walks stop this deep and after this many files, so a strange tree cannot keep a fetch busy. */
const MAX_WALK_DEPTH = 24;
const MAX_FILES = 100_000;

const absent = (error: unknown) => ["ENOENT", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "");

/**
 * Every non-empty regular file under `roots` whose name passes `accept`. Hidden entries are skipped,
 * links to directories are not followed (no loops), a root reached twice (a link) is walked once,
 * and a root that does not exist holds nothing. A folder that cannot be listed throws, or, given
 * `onUnreadable`, is told there and left out.
 */
export async function filesUnder(
  roots: readonly string[],
  accept: (name: string) => boolean,
  onUnreadable?: (dir: string) => void,
): Promise<FoundFile[]> {
  const found: FoundFile[] = [];
  const walked = new Set<string>();
  for (const root of roots) {
    const real = await realpath(root).catch((error: unknown) => {
      if (absent(error)) return null;
      throw error;
    });
    if (real === null || walked.has(real)) continue;
    walked.add(real);
    await walk(root, 0, accept, found, onUnreadable);
  }
  return found;
}

async function walk(
  dir: string,
  depth: number,
  accept: (name: string) => boolean,
  found: FoundFile[],
  onUnreadable?: (dir: string) => void,
): Promise<void> {
  if (depth > MAX_WALK_DEPTH || found.length >= MAX_FILES) return;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (absent(error)) return;
    if (!onUnreadable) throw error;
    return onUnreadable(dir);
  }
  const files = entries.filter((e) => !e.name.startsWith(".") && (e.isFile() || e.isSymbolicLink()) && accept(e.name));
  const infos = await Promise.all(files.map((e) => stat(join(dir, e.name)).catch(() => null)));
  files.forEach((entry, i) => {
    const info = infos[i];
    if (info?.isFile() && info.size > 0 && found.length < MAX_FILES)
      found.push({ path: join(dir, entry.name), size: info.size, mtimeMs: info.mtimeMs });
  });
  for (const entry of entries) {
    if (entry.isDirectory() && !entry.name.startsWith(".")) await walk(join(dir, entry.name), depth + 1, accept, found, onUnreadable);
  }
}

export interface LineScanOptions {
  /** Byte offset to start at: where an earlier scan stopped. */
  from?: number;
  /**
   * Only lines holding this ASCII text are looked at; it is searched over whole chunks, so other
   * lines cost almost nothing. Best six bytes or fewer, starting with a byte that is not common in
   * the logs: Node finds such a needle with memchr on its first byte, and a longer one with
   * Boyer-Moore-Horspool keyed on its last byte, three times slower when that is `"` (JSON's commonest).
   */
  holding: string;
  /** A cheap look at the line before it is handed over (e.g. before a JSON parse). */
  accept?: (text: string) => boolean;
  /**
   * A complete line that holds the needle, as bytes (`view[start, end)`, no newline), before it is
   * decoded: true when it was read from them, and is not to be decoded and handed to `onLine`.
   */
  onBytes?: (view: Buffer, start: number, end: number) => boolean;
  /**
   * Lines decoded as Latin-1 (a character a byte), not UTF-8: a line's JSON parses to the same
   * structure and numbers either way (bytes past ASCII only ever stand inside strings), and V8
   * parses it a quarter faster when UTF-8 would have made it a two-byte string (one character past
   * U+00FF, a dash or a curly quote, does). Its texts past ASCII are then not the written ones:
   * `exact` says when the line is all ASCII, and `Buffer.from(text, "latin1")` gives its bytes back.
   */
  latin1?: boolean;
  /**
   * A line that passed, as UTF-8 text (or Latin-1, above; `exact` when it reads the same either way).
   * The file's last line without a newline yet comes with `complete` false and counts as read only
   * when this returns true (it was whole after all).
   */
  onLine(text: string, complete: boolean, exact: boolean): boolean | void;
  /** Longer lines are skipped (and counted). */
  maxLineBytes?: number;
  /** Stops the read between chunks (the scan rejects with the signal's reason). */
  signal?: AbortSignal;
  /** From a scan that starts at 0: the file's first bytes, up to this many, are kept in `head` (no second open to read them). */
  headBytes?: number;
}

export interface LineScan {
  /** The offset after the last line read: where the next scan starts. */
  end: number;
  bytesRead: number;
  tooLong: number;
  /** The first `headBytes` bytes, when asked for and the scan started at 0. */
  head?: Buffer;
}

const CHUNK_BYTES = 256 << 10;
export const MAX_LINE_BYTES = 16 << 20;
const NEWLINE = 10;
/** The event loop gets a turn after this much is read, by all scans of the thread (a timer, a stop, a message, another request of a server): a few ms of parsing. */
const TURN_BYTES = 256 << 10;
let sinceTurn = 0;

/**
 * Reads a file from `from` in chunks and hands over the complete lines that hold `holding`. Lines
 * are cut on bytes and decoded only when they hold it, so a large file costs a read and a few
 * searches. One buffer is reused, grown only for a line longer than it. The reads block: a log is
 * read at the page cache's speed, and a promise per read took four times as long as the reads;
 * the event loop still gets a turn every few megabytes.
 */
export async function scanLines(path: string, options: LineScanOptions): Promise<LineScan> {
  const max = options.maxLineBytes ?? MAX_LINE_BYTES;
  const needle = Buffer.from(options.holding, "latin1");
  const scan: LineScan = { end: options.from ?? 0, bytesRead: 0, tooLong: 0 };
  const { fd } = openRegularFileSync(path); // a FIFO put in a log's place is refused, not waited on
  let buffer: Buffer = spare.pop() ?? Buffer.allocUnsafe(CHUNK_BYTES);
  try {
    // file offset of buffer[0]; buffer[0, kept) is the start of a line whose newline is still to come
    let bufferStart = scan.end;
    let kept = 0;
    // inside a line longer than `max`: its bytes are dropped up to its newline
    let skipping = false;
    for (;;) {
      if (sinceTurn >= TURN_BYTES) {
        sinceTurn = 0;
        await turn();
      }
      options.signal?.throwIfAborted();
      if (kept === buffer.length) {
        if (buffer.length < max) buffer = grown(buffer, kept);
        else [skipping, bufferStart, kept] = [true, bufferStart + kept, 0];
      }
      const bytesRead = readSync(fd, buffer, kept, buffer.length - kept, bufferStart + kept);
      if (options.headBytes !== undefined && bufferStart + kept === 0)
        scan.head = Buffer.from(buffer.subarray(0, Math.min(options.headBytes, bytesRead)));
      if (bytesRead === 0) break;
      scan.bytesRead += bytesRead;
      sinceTurn += bytesRead;
      const view = buffer.subarray(0, kept + bytesRead);
      let first = 0;
      if (skipping) {
        const newline = view.indexOf(NEWLINE);
        if (newline === -1) {
          [bufferStart, kept] = [bufferStart + view.length, 0];
          continue;
        }
        [skipping, first] = [false, newline + 1];
        scan.tooLong++;
        scan.end = bufferStart + first;
      }
      const last = view.lastIndexOf(NEWLINE);
      if (last >= first) {
        readLines(view, first, last + 1, needle, max, options, scan);
        scan.end = bufferStart + last + 1;
      }
      const rest = Math.max(first, last + 1);
      view.copy(buffer, 0, rest);
      [bufferStart, kept] = [bufferStart + rest, view.length - rest];
    }
    if (!skipping && kept > 0) {
      const text = buffer.toString(options.latin1 ? "latin1" : "utf8", 0, kept);
      const exact = !options.latin1 || isAscii(buffer.subarray(0, kept));
      if (text.includes(options.holding) && (!options.accept || options.accept(text)) && options.onLine(text, false, exact) === true)
        scan.end += kept;
    }
  } finally {
    closeSync(fd);
    if (buffer.length === CHUNK_BYTES && spare.length < 8) spare.push(buffer);
  }
  return scan;
}

/** Chunk buffers of scans that ended, for the next (a new one per file cost more than its reads). */
const spare: Buffer[] = [];

function grown(buffer: Buffer, kept: number): Buffer {
  const bigger = Buffer.allocUnsafe(buffer.length * 2);
  buffer.copy(bigger, 0, 0, kept);
  return bigger;
}

/** The lines of `view[first, limit)` (which ends with a newline) that hold the needle, each handed over once. */
function readLines(
  view: Buffer,
  first: number,
  limit: number,
  needle: Buffer,
  max: number,
  options: LineScanOptions,
  scan: LineScan,
): void {
  // searched on bytes: only the lines holding it are ever decoded
  const latin1 = options.latin1 === true;
  // most chunks are ASCII throughout: no line of theirs is looked at again (found out at the first line decoded)
  let allAscii: boolean | undefined;
  let at = view.indexOf(needle, first);
  while (at !== -1 && at < limit) {
    const start = Math.max(first, view.lastIndexOf(NEWLINE, at) + 1);
    const end = view.indexOf(NEWLINE, at);
    if (end - start > max) scan.tooLong++;
    else if (options.onBytes?.(view, start, end) !== true) {
      const text = view.toString(latin1 ? "latin1" : "utf8", start, end);
      if (!options.accept || options.accept(text)) {
        allAscii ??= latin1 && isAscii(view.subarray(first, limit));
        options.onLine(text, true, !latin1 || allAscii || isAscii(view.subarray(start, end)));
      }
    }
    at = view.indexOf(needle, end + 1);
  }
}

/** The end of a log file, read without loading the rest. */
export interface FileTail {
  /** Whole lines only: when the read starts inside the file, the cut line before the first newline is left out. */
  text: string;
  size: number;
  mtimeMs: number;
}

/**
 * The last `maxBytes` of a regular file as UTF-8 text, whatever its size (a 1 GB log costs one
 * read of `maxBytes`). Null when there is no such file, or it is not a regular file: it is opened
 * without blocking (a FIFO would wait for a writer) and checked on the open handle.
 */
export async function readTail(path: string, maxBytes: number): Promise<FileTail | null> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if (absent(error)) return null;
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return null;
    // one byte more, before the tail: when it is a newline, the tail starts with a whole line
    const start = Math.max(0, info.size - maxBytes - 1);
    const buffer = Buffer.alloc(info.size - start);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, start + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const firstLine = start === 0 ? 0 : buffer.subarray(0, filled).indexOf(NEWLINE) + 1;
    const text = start > 0 && firstLine === 0 ? "" : buffer.toString("utf8", firstLine, filled);
    return { text, size: info.size, mtimeMs: info.mtimeMs };
  } finally {
    await handle.close();
  }
}
