import { addRequest, isLogTime, isRequestModel } from "./claude-logs.js";
import { CLAUDE_LINE_WASM } from "./claude-line-wasm.js";
import { NO_KEY, setAmounts, timeOf, type LineOutcome, type RequestSink } from "./log-entry.js";
import { modelFacts, requestNanos, type Backend } from "./prices.js";

/**
 * Claude Code's request lines read from their bytes, by a WebAssembly reader (wasm/claude-line.ts):
 * it checks a line is JSON as JSON.parse would and finds the fields claudeEntry reads, with no
 * object made, no text decoded but the model's (when it changes) and the session's. JSON.parse and the garbage of its
 * objects were half of a cold scan's work; WebAssembly is compiled to machine code as it loads, where
 * a reader in JavaScript ran in V8's baseline tiers until its optimised code was made (two threads
 * busy reading leave no core for that). It answers only for the usual shape, and null for anything
 * else (an escape in a field it reads, a key twice, a count not in plain digits, a line that is not
 * JSON, metadata that might name Vertex): then the line is parsed and read by claudeEntry.
 */

// the reader's answer, as f64 numbers at fieldsAt() (wasm/claude-line.ts keeps the same order)
const INPUT = 0;
const OUTPUT = 1;
const CACHE_WRITE = 2;
const CACHE_READ = 3;
const SPLIT_5M = 4;
const SPLIT_1H = 5;
const HAS_SPLIT = 6;
const KEY = 7;
const MODEL_AT = 8;
const MODEL_LENGTH = 9;
const TIME_AT = 10;
const TIME_LENGTH = 11;
const SESSION_AT = 12;
const SESSION_LENGTH = 13;
const SIDECHAIN = 14;
const VERTEX_ID = 15;
const SAME_MODEL = 16;
const SAME_SESSION = 17;
const TIME = 18;
const FIELDS = 19;

/** Longer lines are parsed: the reader's memory grows to hold a line, up to this. */
const LONGEST_LINE = 4 << 20;
/** The reader looks at 16 bytes at a time: this many past a line's end must be there. */
const PADDING = 16;
const PAGE = 64 << 10;

// the WebAssembly API this uses (the project's TypeScript libraries do not declare it)
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
};

interface Exports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  fieldsAt(): number;
  freeAt(): number;
  readLine(start: number, stop: number): number;
  namesVertexAnywhere(start: number, stop: number): number;
}

interface LineReader {
  exports: Exports;
  /** Where a line is written. */
  lineAt: number;
  heap: Buffer;
  fields: Float64Array;
  /** The last line's model and session texts: the reader says when a line's are the same. */
  model: string;
  session: string;
}

let reader: LineReader | null | undefined;

/** The reader, made on first use (one per thread); null where WebAssembly or its SIMD is missing. */
function lineReader(): LineReader | null {
  if (reader !== undefined) return reader;
  try {
    const module = new WebAssembly.Module(Buffer.from(CLAUDE_LINE_WASM, "base64"));
    const exports = new WebAssembly.Instance(module, {}).exports as unknown as Exports;
    reader = { exports, lineAt: exports.freeAt(), heap: Buffer.alloc(0), fields: new Float64Array(0), model: "", session: "" };
    viewMemory(reader);
  } catch {
    reader = null;
  }
  return reader;
}

function viewMemory(into: LineReader): void {
  const { buffer } = into.exports.memory;
  into.heap = Buffer.from(buffer);
  into.fields = new Float64Array(buffer, into.exports.fieldsAt(), FIELDS);
}

/**
 * Reads the line at view[start, end) (no newline) as claudeEntry would read its parse: what it
 * adds to `into`, or null when the line must be parsed instead (nothing is added then).
 */
export function claudeBytesEntry(view: Buffer, start: number, end: number, session: string, into: RequestSink): LineOutcome | null {
  const line = lineReader();
  const length = end - start;
  if (line === null || length > LONGEST_LINE) return null;
  if (line.lineAt + length + PADDING > line.heap.length) {
    line.exports.memory.grow(Math.ceil((line.lineAt + length + PADDING - line.heap.length) / PAGE));
    viewMemory(line);
  }
  const { heap, fields, lineAt } = line;
  view.copy(heap, lineAt, start, end);
  if (line.exports.readLine(lineAt, lineAt + length) === 0) return null;
  // the texts kept first, whatever comes next: the reader compares the next line's with these
  if (fields[SAME_MODEL] === 0) line.model = text(heap, fields[MODEL_AT], fields[MODEL_LENGTH]);
  const sessionLength = fields[SESSION_LENGTH] as number;
  if (sessionLength >= 0 && fields[SAME_SESSION] === 0) line.session = text(heap, fields[SESSION_AT], sessionLength);
  // claudeEntry's checks, in its order (every count is a whole number here, every field of its type)
  if (!isRequestModel(line.model)) return "none";
  // read there in the usual forms; timeOf reads any other
  const read = fields[TIME] as number;
  const at = read === read ? read : timeOf(text(heap, fields[TIME_AT], fields[TIME_LENGTH]));
  if (!isLogTime(at)) return "bad";
  const input = fields[INPUT] as number;
  const output = fields[OUTPUT] as number;
  const hasSplit = fields[HAS_SPLIT] === 1;
  const fiveMinutes = Math.max(fields[SPLIT_5M] as number, 0);
  const cacheWrite1h = hasSplit ? Math.max(fields[SPLIT_1H] as number, 0) : 0;
  const cacheWrite = hasSplit ? fiveMinutes + cacheWrite1h : Math.max(fields[CACHE_WRITE] as number, 0);
  const cacheRead = Math.max(fields[CACHE_READ] as number, 0);
  if (input + output + cacheWrite + cacheRead === 0) return "none";
  const facts = modelFacts(line.model);
  const backend = backendOf(line, facts.backend, lineAt, length);
  if (backend === null) return null;
  setAmounts(into, input, output, cacheWrite, cacheRead, requestNanos(facts, input, output, cacheWrite, cacheWrite1h, cacheRead));
  const key = fields[KEY] as number;
  return addRequest(into, facts, backend, sessionLength > 0 ? line.session : session, key < 0 ? NO_KEY : key, at, fields[SIDECHAIN] === 1);
}

/** claudeEntry's backend, but null where metadata might name Vertex: the parse's object is searched for it then. */
function backendOf(line: LineReader, byModel: Backend, lineAt: number, length: number): Backend | null {
  if (byModel !== "anthropic") return byModel;
  if (line.fields[VERTEX_ID] === 1) return "vertexai";
  return line.exports.namesVertexAnywhere(lineAt, lineAt + length) === 0 ? "anthropic" : null;
}

const text = (heap: Buffer, at: number | undefined, length: number | undefined) =>
  heap.toString("latin1", at, (at as number) + (length as number));
