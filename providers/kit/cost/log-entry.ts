import type { Backend } from "./prices.js";

/** One request found in a log, as both scanners (Claude Code lines, Codex events) hand it to the index. */

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

export interface LogEntry {
  /** `answerKey` of the message id and request id: streamed chunks of one answer repeat it; null when there is none (always counted). */
  key: number | null;
  /** When it happened, ms since the epoch. */
  at: number;
  row: Row;
  amounts: Amounts;
  /** Written by a sub-agent (`isSidechain`): its copy of an answer gives way to the main session's. */
  sidechain?: boolean;
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
 * Date.parse of a log's timestamp, read directly in the form every log line has
 * (`2026-03-20T12:00:00.000Z`, days 1 to 28: Date.parse cost a sixth of a line's reading); any
 * other text goes to Date.parse.
 */
export function timeOf(text: string): number {
  if (text.length !== 24 || text.charCodeAt(23) !== 90 /* Z */) return Date.parse(text);
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  const ms = digits(text, 20, 3);
  if (
    text.charCodeAt(4) !== 45 ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 84 ||
    text.charCodeAt(13) !== 58 ||
    text.charCodeAt(16) !== 58 ||
    text.charCodeAt(19) !== 46 ||
    year < 0 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > 28 ||
    hour < 0 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59 ||
    second < 0 ||
    second > 59 ||
    ms < 0
  )
    return Date.parse(text);
  return ((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + ms;
}

/** The whole number written in text[from, from + count); -1 when a character is not a digit. */
function digits(text: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}
