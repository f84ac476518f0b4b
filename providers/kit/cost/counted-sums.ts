import { AMOUNTS, rowOf } from "./log-entry.js";
import { addAmounts, KEYED_WIDTH, SUM_WIDTH, type FileRecord, type Sums } from "./log-index.js";

/**
 * Every request of a set of log files, summed per quarter hour and name (`nameOf` its row). An
 * answer found in several files is counted once, as ccusage does: the copy that is not a
 * sidechain's, else the one with more tokens, else the first file's in path order. Plain loops
 * over numbers: a cold scan's tens of thousands of answers come to a few thousand sums, in a
 * process whose code has not warmed up.
 */
export interface CountedSums {
  /** The newest quarter hour holding a request (-Infinity for none). */
  newest: number;
  /** Each quarter hour and name that holds a request, with its amounts (`amounts[at]` on). */
  each(visit: (quarter: number, name: string, amounts: ArrayLike<number>, at: number) => void): void;
}

/** What the summary's days are counted under: a row's backend and model, without its session. */
export function withoutSession(row: string): string {
  const { backend, model } = rowOf(row);
  return `${backend}\t${model}\t`;
}

/** Every file's requests per quarter hour, row and session. */
export function allSums(records: Record<string, FileRecord>): Sums {
  const sums: Sums = {};
  countedSums(records, (row) => row).each((quarter, row, amounts, at) => addAmounts(sums, quarter, row, amounts, at));
  return sums;
}

export function countedSums(records: Record<string, FileRecord>, nameOf: (row: string) => string): CountedSums {
  const paths = Object.keys(records);
  const list = paths.map((path) => records[path] as FileRecord);
  // each file's rows as the number of their name
  const names: string[] = [];
  const nameIds = new Map<string, number>();
  const rowIds = list.map((record) =>
    record.rows.map((row) => {
      const name = nameOf(row);
      let id = nameIds.get(name);
      if (id === undefined) nameIds.set(name, (id = names.push(name) - 1));
      return id;
    }),
  );
  let [oldest, newest, answers] = [Infinity, -Infinity, 0];
  for (const { sums, keyed } of list) {
    for (let i = 0; i < sums.length; i += SUM_WIDTH) {
      const quarter = sums[i] as number;
      if (quarter < oldest) oldest = quarter;
      if (quarter > newest) newest = quarter;
    }
    for (let i = 1; i < keyed.length; i += KEYED_WIDTH) {
      const quarter = keyed[i] as number;
      if (quarter < oldest) oldest = quarter;
      if (quarter > newest) newest = quarter;
    }
    answers += keyed.length / KEYED_WIDTH;
  }
  const counted = new QuarterSums(oldest, newest, names.length);
  for (let r = 0; r < list.length; r++) {
    const { sums } = list[r] as FileRecord;
    const ids = rowIds[r] as number[];
    for (let i = 0; i < sums.length; i += SUM_WIDTH) counted.add(sums[i] as number, ids[sums[i + 1] as number] as number, sums, i + 2);
  }
  // the copy of each answer chosen so far, found by its hash: open addressing, at most two thirds full (a Map of such numbers is several times slower)
  let size = 16;
  while (size * 2 < answers * 3) size *= 2;
  const hashes = new Float64Array(size).fill(-1);
  const slots = new Int32Array(size);
  const chosenIn = new Int32Array(answers);
  const chosenAt = new Int32Array(answers);
  let chosen = 0;
  for (let r = 0; r < list.length; r++) {
    const { keyed } = list[r] as FileRecord;
    for (let i = 0; i < keyed.length; i += KEYED_WIDTH) {
      const hash = keyed[i] as number;
      let h = (hash >>> 0) & (size - 1);
      while (hashes[h] !== -1 && hashes[h] !== hash) h = (h + 1) & (size - 1);
      if (hashes[h] === -1) {
        hashes[h] = hash;
        slots[h] = chosen;
        chosenIn[chosen] = r;
        chosenAt[chosen++] = i;
      } else {
        const slot = slots[h] as number;
        const other = chosenIn[slot] as number;
        if (wins(keyed, i, paths[r] as string, (list[other] as FileRecord).keyed, chosenAt[slot] as number, paths[other] as string)) {
          chosenIn[slot] = r;
          chosenAt[slot] = i;
        }
      }
    }
  }
  for (let slot = 0; slot < chosen; slot++) {
    const r = chosenIn[slot] as number;
    const keyed = (list[r] as FileRecord).keyed;
    const at = chosenAt[slot] as number;
    counted.add(keyed[at + 1] as number, (rowIds[r] as number[])[keyed[at + 2] as number] as number, keyed, at + 4);
  }
  return {
    newest,
    each: (visit) => counted.each((quarter, name, amounts, at) => visit(quarter, names[name] as string, amounts, at)),
  };
}

/** Whether the copy at `keyed[i]` (in `path`) is chosen over the one at `other[at]`: the same whatever order files come in. */
function wins(keyed: Float64Array, i: number, path: string, other: Float64Array, at: number, otherPath: string): boolean {
  const [side, otherSide] = [keyed[i + 3] as number, other[at + 3] as number];
  if (side !== otherSide) return side < otherSide;
  const tokens = (e: Float64Array, j: number) => (e[j + 4] as number) + (e[j + 5] as number) + (e[j + 6] as number) + (e[j + 7] as number);
  const [mine, theirs] = [tokens(keyed, i), tokens(other, at)];
  return mine !== theirs ? mine > theirs : path < otherPath;
}

/**
 * Amounts per quarter hour and name: one flat array over every quarter from the oldest to the
 * newest when that is not too large (a year of quarters and a few models), else a Map.
 */
class QuarterSums {
  private readonly dense: Float64Array | null;
  private readonly at = new Map<number, number>();
  private readonly sparse: number[] = [];

  constructor(
    private readonly oldest: number,
    newest: number,
    private readonly names: number,
  ) {
    const cells = (newest - oldest + 1) * names * AMOUNTS;
    this.dense = cells > 0 && cells <= 1 << 22 ? new Float64Array(cells) : null;
  }

  add(quarter: number, name: number, amounts: Float64Array, from: number): void {
    let at: number | undefined;
    const into = this.dense ?? this.sparse;
    if (this.dense) at = ((quarter - this.oldest) * this.names + name) * AMOUNTS;
    else {
      // small whole numbers where it can (a Map finds those faster)
      const key = (quarter - this.oldest) * this.names + name;
      at = this.at.get(key);
      if (at === undefined) this.at.set(key, (at = this.sparse.push(0, 0, 0, 0, 0, 0, 0) - AMOUNTS));
    }
    for (let i = 0; i < AMOUNTS; i++) into[at + i] = (into[at + i] as number) + (amounts[from + i] as number);
  }

  each(visit: (quarter: number, name: number, amounts: ArrayLike<number>, at: number) => void): void {
    if (this.dense) {
      const dense = this.dense;
      for (let at = 0; at < dense.length; at += AMOUNTS) {
        // a cell without a request (the sixth amount counts them) is left out
        if (dense[at + 5] === 0) continue;
        const cell = at / AMOUNTS;
        visit(this.oldest + Math.floor(cell / this.names), cell % this.names, dense, at);
      }
      return;
    }
    for (const [key, at] of this.at) visit(this.oldest + Math.floor(key / this.names), key % this.names, this.sparse, at);
  }
}
