import type { DaySums } from "./log-index.js";
import { isPriced } from "./prices.js";
import { compareText } from "../kit/index.js";
import { withoutControls } from "../../domain/untrusted-text.js";

/** The Vertex AI cost of a span of days, by day and by model: what the meter and `quotabar cost` show. */

export interface CostFigures {
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
  requests: number;
  /** USD; null when none of the models used has a price. */
  costUsd: number | null;
}

export interface ModelCost extends CostFigures {
  model: string;
}

export interface DayCost extends CostFigures {
  date: string;
  models: ModelCost[];
}

export interface CostReport {
  /** First and last local day counted (`YYYY-MM-DD`). */
  since: string;
  until: string;
  days: DayCost[];
  /** Most expensive first. */
  models: ModelCost[];
  total: CostFigures;
  /** Models counted in tokens only: no price is known for them. */
  unpricedModels: string[];
}

/** Sums being built: the six amounts of the log index, and whether any priced model went in. */
class Tally {
  readonly sums = [0, 0, 0, 0, 0, 0];
  priced = false;

  add(amounts: readonly number[], priced: boolean): void {
    for (let i = 0; i < this.sums.length; i++) this.sums[i] = (this.sums[i] as number) + (amounts[i] ?? 0);
    this.priced ||= priced;
  }

  figures(): CostFigures {
    const [input, output, cacheWrite, cacheRead, nanos, requests] = this.sums as [number, number, number, number, number, number];
    return {
      inputTokens: input,
      outputTokens: output,
      cacheWriteTokens: cacheWrite,
      cacheReadTokens: cacheRead,
      totalTokens: input + output + cacheWrite + cacheRead,
      requests,
      costUsd: this.priced || requests === 0 ? nanos / 1e9 : null,
    };
  }
}

/** The value kept under `key`, made first when there is none. */
function slot<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

const byCost = (a: ModelCost, b: ModelCost) =>
  (b.costUsd ?? -1) - (a.costUsd ?? -1) || b.totalTokens - a.totalTokens || compareText(a.model, b.model);

export function costReport(sums: DaySums, since: string, until: string): CostReport {
  const days = new Map<string, Map<string, Tally>>();
  for (const [day, models] of Object.entries(sums)) {
    if (day < since || day > until) continue;
    const tallies = slot(days, day, () => new Map<string, Tally>());
    // a model's name is what a log file says: shown (`quotabar cost`, its JSON) only as clean text
    for (const [raw, amounts] of Object.entries(models)) {
      const model = withoutControls(raw);
      slot(tallies, model, () => new Tally()).add(amounts, isPriced(model));
    }
  }
  const total = new Tally();
  const perModel = new Map<string, Tally>();
  const dayRows = [...days.keys()].sort().map((date): DayCost => {
    const dayTally = new Tally();
    const models = [...(days.get(date) as Map<string, Tally>)].map(([model, tally]) => {
      const priced = isPriced(model);
      dayTally.add(tally.sums, priced);
      total.add(tally.sums, priced);
      slot(perModel, model, () => new Tally()).add(tally.sums, priced);
      return { model, ...tally.figures() };
    });
    return { date, ...dayTally.figures(), models: models.sort(byCost) };
  });
  const models = [...perModel].map(([model, tally]) => ({ model, ...tally.figures() })).sort(byCost);
  return {
    since,
    until,
    days: dayRows,
    models,
    total: total.figures(),
    unpricedModels: models.filter((m) => !isPriced(m.model)).map((m) => m.model),
  };
}
