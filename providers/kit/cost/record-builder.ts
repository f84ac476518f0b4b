import { AMOUNTS, NO_KEY, quarterOf, rowKey, type RequestSink } from "./log-entry.js";
import { KEYED_WIDTH, ROW_SPAN, SUM_WIDTH, type FileRecord } from "./log-index.js";
import type { Backend } from "./prices.js";

/**
 * A file's record as its lines are read (log-read.ts): each request goes straight into flat
 * numbers, found again through a table of its own, with no object per request (a cold scan reads
 * hundreds of thousands; an object each, and a Map keyed by a 53-bit number, were a third of the
 * time outside the JSON parse). Read on from an earlier record, it starts from that record's numbers.
 */
export class RecordBuilder implements RequestSink {
  readonly amounts = new Float64Array(AMOUNTS);
  readonly rows: string[];
  private readonly rowIndex: Map<string, number>;
  /** The row each priced model was last counted under: a file's requests come under a few rows, often in turn. */
  private readonly lastRow = new Map<string, { backend: Backend; session: string; row: number }>();
  private sums: Float64Array;
  private sumsLength: number;
  private readonly sumAt = new Map<number, number>();
  /** The last answered `sumAt` lookup: Codex's events come one after another in the same quarter hour and row. */
  private lastSum = { key: -1, at: -1 };
  private keyed: Float64Array;
  private keyedLength: number;
  /** Open addressing over the answers' keys: 1 + the answer's place (in KEYED_WIDTH units), 0 for a free slot. */
  private slots: Int32Array;

  constructor(resume: FileRecord | null) {
    this.rows = resume ? [...resume.rows] : [];
    this.rowIndex = new Map(this.rows.map((row, i) => [row, i]));
    this.sums = grown(resume?.sums ?? new Float64Array(0), 64 * SUM_WIDTH);
    this.sumsLength = resume?.sums.length ?? 0;
    for (let at = 0; at < this.sumsLength; at += SUM_WIDTH)
      this.sumAt.set((this.sums[at] as number) * ROW_SPAN + (this.sums[at + 1] as number), at);
    this.keyed = grown(resume?.keyed ?? new Float64Array(0), 1024 * KEYED_WIDTH);
    this.keyedLength = resume?.keyed.length ?? 0;
    this.slots = new Int32Array(slotsFor(this.keyed.length / KEYED_WIDTH));
    this.placeAll();
  }

  row(backend: Backend, model: string, session: string): number {
    const last = this.lastRow.get(model);
    if (last !== undefined && last.backend === backend && last.session === session) return last.row;
    const key = rowKey({ backend, model, session });
    let row = this.rowIndex.get(key);
    if (row === undefined) {
      if (this.rows.length >= ROW_SPAN) return -1;
      this.rowIndex.set(key, (row = this.rows.push(key) - 1));
    }
    this.lastRow.set(model, { backend, session, row });
    return row;
  }

  add(key: number, at: number, row: number, sidechain: boolean): void {
    const quarter = quarterOf(at);
    const amounts = this.amounts;
    if (key === NO_KEY) {
      const sums = this.sumFor(quarter, row);
      const from = this.lastSum.at + 2;
      for (let i = 0; i < AMOUNTS; i++) sums[from + i] = (sums[from + i] as number) + (amounts[i] as number);
      return;
    }
    // the last chunk of an answer wins: a streamed answer's later chunks carry its final counts
    const place = this.placeOf(key);
    const keyed = this.keyed;
    keyed[place + 1] = quarter;
    keyed[place + 2] = row;
    keyed[place + 3] = sidechain ? 1 : 0;
    for (let i = 0; i < AMOUNTS; i++) keyed[place + 4 + i] = amounts[i] as number;
  }

  /** The record's numbers, trimmed to what they hold. */
  numbers(): { rows: string[]; sums: Float64Array; keyed: Float64Array } {
    return { rows: this.rows, sums: this.sums.slice(0, this.sumsLength), keyed: this.keyed.slice(0, this.keyedLength) };
  }

  /** The sums of (quarter, row), made when new; `lastSum.at` is where they start. */
  private sumFor(quarter: number, row: number): Float64Array {
    const key = quarter * ROW_SPAN + row;
    if (this.lastSum.key !== key) {
      let at = this.sumAt.get(key);
      if (at === undefined) {
        at = this.sumsLength;
        this.sumsLength += SUM_WIDTH;
        if (this.sumsLength > this.sums.length) this.sums = grown(this.sums, this.sumsLength * 2);
        this.sums.fill(0, at, this.sumsLength);
        this.sums[at] = quarter;
        this.sums[at + 1] = row;
        this.sumAt.set(key, at);
      }
      this.lastSum = { key, at };
    }
    return this.sums;
  }

  /** Where the answer under `key` is kept: found, or made (its key written, the rest filled in by the caller). */
  private placeOf(key: number): number {
    const mask = this.slots.length - 1;
    for (let slot = (key >>> 0) & mask; ; slot = (slot + 1) & mask) {
      const taken = this.slots[slot] as number;
      if (taken === 0) break;
      const place = (taken - 1) * KEYED_WIDTH;
      if (this.keyed[place] === key) return place;
    }
    const place = this.keyedLength;
    this.keyedLength += KEYED_WIDTH;
    if (this.keyedLength > this.keyed.length) this.keyed = grown(this.keyed, this.keyedLength * 2);
    this.keyed[place] = key;
    // kept at most half full, so a free slot is near
    if ((this.keyedLength / KEYED_WIDTH) * 2 > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2);
      this.placeAll();
    } else this.place(place);
    return place;
  }

  private placeAll(): void {
    for (let place = 0; place < this.keyedLength; place += KEYED_WIDTH) this.place(place);
  }

  private place(place: number): void {
    const mask = this.slots.length - 1;
    let slot = ((this.keyed[place] as number) >>> 0) & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = place / KEYED_WIDTH + 1;
  }
}

/** A power of two at least twice `answers` (and 16). */
function slotsFor(answers: number): number {
  let size = 16;
  while (size < answers * 2) size *= 2;
  return size;
}

/** A new array of `length` (at least `from`'s) holding `from`'s numbers first. */
function grown(from: Float64Array, length: number): Float64Array {
  const bigger = new Float64Array(Math.max(length, from.length));
  bigger.set(from);
  return bigger;
}
