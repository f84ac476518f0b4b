import type { Backend } from "./prices.js";

/** One request found in a log, as both readers (Claude Code lines, Codex events) hand it over. */

/** What a request is counted under: the row of `quotabar cost` it adds to, and its session. */
export interface Row {
  backend: Backend;
  /** The priced name (`modelKey`). */
  model: string;
  session: string;
}

/**
 * input (not cached), output, cache write, cache read, cost in nanodollars, requests, requests
 * without a price. Whole numbers, so sums are exact.
 */
export type Amounts = number[];
export const AMOUNTS = 7;

/** A request without a message id and request id: always counted. */
export const NO_KEY = -1;

/**
 * Where a reader puts the requests it finds: a file's record as it is read (record-builder.ts).
 * A request is plain numbers, in place: a cold scan finds hundreds of thousands.
 */
export interface RequestSink {
  /** The index of a row (backend, priced model, session) in the file's record; -1 when the record has no room for another. */
  row(backend: Backend, model: string, session: string): number;
  /** The request's amounts (AMOUNTS, in their order), filled in before `add` (`setAmounts`). */
  readonly amounts: Float64Array;
  /**
   * Counts a request: `key` is the `answerKey` of its message id and request id (streamed chunks
   * of one answer repeat it) or NO_KEY; `at` ms since the epoch; `sidechain` when a sub-agent
   * wrote it (its copy of an answer gives way to the main session's).
   */
  add(key: number, at: number, row: number, sidechain: boolean): void;
}

/** Fills a sink's `amounts` for one request: its four counts and its cost (null: no price, counted as unpriced). */
export function setAmounts(
  into: RequestSink,
  input: number,
  output: number,
  cacheWrite: number,
  cacheRead: number,
  nanos: number | null,
): void {
  const amounts = into.amounts;
  amounts[0] = input;
  amounts[1] = output;
  amounts[2] = cacheWrite;
  amounts[3] = cacheRead;
  amounts[4] = nanos ?? 0;
  amounts[5] = 1;
  amounts[6] = nanos === null ? 1 : 0;
}

/**
 * What a reader makes of a parsed line: a request counted, none, a request whose counts cannot be
 * trusted (skipped, and said), or, for a line decoded as Latin-1 whose texts it uses are past ASCII,
 * "again": to be read from its UTF-8 text (line-files.ts, `latin1`).
 */
export type LineOutcome = "counted" | "none" | "bad" | "again";

/** Whether a value reads the same from a line decoded as Latin-1 as from its UTF-8: not a text, or an ASCII one. */
export const sameInLatin1 = (value: unknown): boolean => typeof value !== "string" || !PAST_ASCII.test(value);
const PAST_ASCII = /[\u0080-\uffff]/;

/** One request as an object: what a line adds, for a look at a single line (tests). */
export interface LogEntry {
  key: number;
  at: number;
  row: Row;
  amounts: Amounts;
  sidechain: boolean;
}

/** The request `read` puts in a sink, as an object; null when it puts none, "bad" when the line is not trusted. */
export function entryOf(read: (into: RequestSink) => LineOutcome): LogEntry | null | "bad" {
  const rows: Row[] = [];
  let entry: LogEntry | null = null;
  const amounts = new Float64Array(AMOUNTS);
  const outcome = read({
    row: (backend, model, session) => rows.push({ backend, model, session }) - 1,
    amounts,
    add: (key, at, row, sidechain) => {
      entry = { key, at, row: rows[row] as Row, amounts: Array.from(amounts), sidechain };
    },
  });
  return outcome === "bad" ? "bad" : entry;
}

/** A token count as a log writes it: a whole non-negative number, else null (the line is not trusted). */
export const countOf = (value: unknown): number | null =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : null;

/** Rows are kept in the index under one string: backend, model, session. */
export const rowKey = (row: Row): string => `${row.backend}\t${row.model}\t${row.session}`;

export function rowOf(key: string): Row {
  const [backend, model, session] = key.split("\t");
  return { backend: backend as Backend, model: model ?? "", session: session ?? "" };
}

/** Sums are kept per quarter hour (every time zone's offset is whole quarters, so each falls in one local day). */
export const QUARTER_MS = 15 * 60_000;
export const quarterOf = (at: number): number => Math.floor(at / QUARTER_MS);

/** A message id and request id as one number: 53 bits of two 32-bit FNV-1a hashes of `id:request` (a record keeps one per answer). */
export function answerKey(id: string, request: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  const step = (c: number) => {
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  };
  for (let i = 0; i < id.length; i++) step(id.charCodeAt(i));
  step(58); // ":"
  for (let i = 0; i < request.length; i++) step(request.charCodeAt(i));
  return (a >>> 0) * 2 ** 21 + (b >>> 11);
}

/**
 * Date.parse of a log's timestamp, read directly in the forms log lines have
 * (`2026-03-20T12:00:00.000Z`, or with an offset, `...000+02:00`: Date.parse cost a sixth of a
 * line's reading); any other text, and any date or time that is not a real one, goes to Date.parse.
 * One loop checks the form and keeps each character's value, so there is one `charCodeAt`: V8
 * compiles each call site of it into a walk over every kind of string, and nine digit loops took
 * 5 ms to compile, where this takes 2.7 (it is compiled, and inlined into both readers, on both threads).
 */
export function timeOf(text: string): number {
  const form = text.length === 24 ? UTC_FORM : text.length === 29 ? OFFSET_FORM : null;
  if (form === null) return Date.parse(text);
  for (let i = 0; i < form.length; i++) {
    const want = form[i] as number;
    const c = text.charCodeAt(i);
    if (want === DIGIT ? c < 48 || c > 57 : want === SIGN ? c !== 43 && c !== 45 : c !== want) return Date.parse(text);
    READ[i] = c - 48;
  }
  const year = two(0) * 100 + two(2);
  const month = two(5);
  const day = two(8);
  const hour = two(11);
  const minute = two(14);
  const second = two(17);
  const ms = two(20) * 10 + (READ[22] as number);
  const offsetHours = form === OFFSET_FORM ? two(24) : 0;
  const offsetMinutes = form === OFFSET_FORM ? two(27) : 0;
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysIn(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    offsetHours > 23 ||
    offsetMinutes > 59
  )
    return Date.parse(text);
  const offset = (READ[23] === 45 - 48 ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  return ((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute - offset) * 60_000 + second * 1000 + ms;
}

/** The two read forms, `d` for a digit and `s` for a sign; any other character stands for itself. */
const codes = (form: string) => Uint8Array.from(form, (char) => char.charCodeAt(0));
const UTC_FORM = codes("dddd-dd-ddTdd:dd:dd.dddZ");
const OFFSET_FORM = codes("dddd-dd-ddTdd:dd:dd.dddsdd:dd");
const DIGIT = 100; // d
const SIGN = 115; // s
/** Each character of the timestamp being read, less 48 (a digit's value). */
const READ = new Int32Array(OFFSET_FORM.length);
/** The number the two digits at `at` make. */
const two = (at: number) => (READ[at] as number) * 10 + (READ[at + 1] as number);

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysIn = (year: number, month: number) =>
  month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : (MONTH_DAYS[month - 1] as number);

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}
