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
  /** `message.id:requestId`: streamed chunks of one answer repeat it; null when there is none (always counted). */
  key: string | null;
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
