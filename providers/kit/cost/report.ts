import { compareText } from "../index.js";
import { withoutControls } from "../../../domain/untrusted-text.js";
import { localDay, weekStart } from "./days.js";
import { QUARTER_MS, rowOf } from "./log-entry.js";
import type { Sums } from "./log-index.js";
import type { Agent, Backend } from "./prices.js";

/** The cost of a span of local days, by period and by model: what `quotabar cost`, `serve /cost` and the meters show. */

export type Grouping = "day" | "week" | "month" | "session";

export interface CostFigures {
  /** Not cached. */
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
  requests: number;
  /** USD; null when none of the requests has a price. */
  costUsd: number | null;
}

export interface ModelCost extends CostFigures {
  model: string;
  agent: Agent;
  backend: Backend;
}

export interface DayCost extends CostFigures {
  /** The period: a day `YYYY-MM-DD`, a week by its Monday, a month `YYYY-MM`, or a session id. */
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
  /** Models counted in tokens only: no price is known for them (their requests count $0 in every sum). */
  unpricedModels: ModelCost[];
}

/** Sums being built from the amounts of `log-entry.ts`. */
class Tally {
  readonly sums = [0, 0, 0, 0, 0, 0, 0];

  add(amounts: readonly number[]): void {
    for (let i = 0; i < this.sums.length; i++) this.sums[i] = (this.sums[i] as number) + (amounts[i] ?? 0);
  }

  figures(): CostFigures {
    const [input, output, cacheWrite, cacheRead, nanos, requests, unpriced] = this.sums as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    return {
      inputTokens: input,
      outputTokens: output,
      cacheWriteTokens: cacheWrite,
      cacheReadTokens: cacheRead,
      totalTokens: input + output + cacheWrite + cacheRead,
      requests,
      costUsd: requests > 0 && unpriced === requests ? null : nanos / 1e9,
    };
  }

  get unpriced(): boolean {
    return (this.sums[6] as number) > 0;
  }
}

/** The value kept under `key`, made first when there is none. */
function slot<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

const byCost = (a: ModelCost, b: ModelCost) =>
  (b.costUsd ?? -1) - (a.costUsd ?? -1) ||
  b.totalTokens - a.totalTokens ||
  compareText(`${a.agent}${a.model}${a.backend}`, `${b.agent}${b.model}${b.backend}`);

const periodOf = (grouping: Grouping, day: string, session: string): string =>
  grouping === "day" ? day : grouping === "week" ? weekStart(day) : grouping === "month" ? day.slice(0, 7) : session;

/** One agent's sums, labelled: per local day; per quarter hour for the last days; per session when asked for. */
export interface AgentSums {
  agent: Agent;
  days: Sums;
  recent: Sums;
  bySession?: Sums;
}

export function costReport(sources: readonly AgentSums[], since: string, until: string, grouping: Grouping = "day"): CostReport {
  const periods = new Map<string, Map<string, { agent: Agent; backend: Backend; model: string; tally: Tally }>>();
  const dayOf = new Map<string, string>();
  for (const { agent, days, bySession: sessions } of sources) {
    // by session, the quarter-hour sums that carry the session; else the summary's days
    const bySession = grouping === "session";
    for (const [bucket, rows] of Object.entries(bySession ? (sessions ?? {}) : days)) {
      const day = bySession ? slot(dayOf, bucket, () => localDay(Number(bucket) * QUARTER_MS)) : bucket;
      if (day < since || day > until) continue;
      for (const [key, amounts] of Object.entries(rows)) {
        const row = rowOf(key);
        // a model's name is what a log file says: shown (`quotabar cost`, its JSON) only as clean text
        const model = withoutControls(row.model);
        const models = slot(periods, withoutControls(periodOf(grouping, day, row.session)), () => new Map());
        slot(models, `${agent}\t${row.backend}\t${model}`, () => ({ agent, backend: row.backend, model, tally: new Tally() })).tally.add(
          amounts,
        );
      }
    }
  }
  const total = new Tally();
  const perModel = new Map<string, { agent: Agent; backend: Backend; model: string; tally: Tally }>();
  const rows = [...periods.keys()].sort().map((date): DayCost => {
    const tally = new Tally();
    const models = [...(periods.get(date) ?? new Map()).entries()].map(([key, m]) => {
      tally.add(m.tally.sums);
      total.add(m.tally.sums);
      slot(perModel, key, () => ({ agent: m.agent, backend: m.backend, model: m.model, tally: new Tally() })).tally.add(m.tally.sums);
      return modelCost(m);
    });
    return { date, ...tally.figures(), models: models.sort(byCost) };
  });
  const models = [...perModel.values()].map(modelCost).sort(byCost);
  const unpriced = new Set([...perModel.values()].filter((m) => m.tally.unpriced).map((m) => `${m.agent}\t${m.backend}\t${m.model}`));
  return {
    since,
    until,
    days: rows,
    models,
    total: total.figures(),
    unpricedModels: models.filter((m) => unpriced.has(`${m.agent}\t${m.backend}\t${m.model}`)),
  };
}

const modelCost = (m: { agent: Agent; backend: Backend; model: string; tally: Tally }): ModelCost => ({
  model: m.model,
  agent: m.agent,
  backend: m.backend,
  ...m.tally.figures(),
});

/**
 * What the sums hold between two moments [start, end), to the quarter hour (a quarter counts when it
 * starts inside); only the last days are kept per quarter hour, enough for a provider's window.
 */
export function costBetween(sources: readonly AgentSums[], start: Date, end: Date): CostFigures {
  const tally = new Tally();
  const [from, to] = [Math.ceil(start.getTime() / QUARTER_MS), Math.ceil(end.getTime() / QUARTER_MS)];
  for (const { recent } of sources) {
    for (const [quarter, rows] of Object.entries(recent)) {
      const q = Number(quarter);
      if (q < from || q >= to) continue;
      for (const amounts of Object.values(rows)) tally.add(amounts);
    }
  }
  return tally.figures();
}
