import type { Environment } from "../../ports/environment.js";
import { logCost, type LogCost } from "../kit/cost/cost.js";
import { localDay, localMonthMinutes, monthStart, nextMonthStart, shiftDay } from "../kit/cost/days.js";
import type { CostReport } from "../kit/cost/report.js";
import type { CostFigure, CostReading } from "./policy.js";

/** The Vertex AI cost found in the Claude Code logs on this machine (no network): the Vertex rows of the shared aggregation. */
export interface VertexCost extends Omit<LogCost, "report"> {
  report: CostReport;
}

const vertexOnly = (report: CostReport): CostReport => {
  const keep = <T extends { backend: string }>(rows: T[]) => rows.filter((row) => row.backend === "vertexai");
  const days = report.days
    .map((day) => ({ ...day, models: keep(day.models) }))
    .filter((day) => day.models.length > 0)
    .map((day) => ({ ...day, ...sum(day.models) }));
  const models = keep(report.models);
  return { ...report, days, models, total: sum(models), unpricedModels: keep(report.unpricedModels) };
};

function sum(rows: readonly CostReport["total"][]): CostReport["total"] {
  const priced = rows.filter((r) => r.costUsd !== null);
  const add = (field: keyof CostReport["total"]) => rows.reduce((n, r) => n + ((r[field] as number | null) ?? 0), 0);
  return {
    inputTokens: add("inputTokens"),
    outputTokens: add("outputTokens"),
    cacheWriteTokens: add("cacheWriteTokens"),
    cacheReadTokens: add("cacheReadTokens"),
    totalTokens: add("totalTokens"),
    requests: add("requests"),
    costUsd: priced.length > 0 || rows.length === 0 ? priced.reduce((n, r) => n + (r.costUsd as number), 0) : null,
  };
}

/** Days from `since` (default: 29 days ago, so 30 with today) to today. */
export async function vertexCost(options: {
  env: Environment;
  now: Date;
  since?: string | null;
  signal?: AbortSignal;
}): Promise<VertexCost> {
  const cost = await logCost({ ...options, agents: ["claude"], since: options.since ?? null });
  // found: any Vertex request on any day, not only in the span asked for (the scan is kept: this reads no file)
  const ever = vertexOnly((await logCost({ ...options, agents: ["claude"], since: "2000-01-01" })).report);
  return { ...cost, report: vertexOnly(cost.report), found: ever.models.length > 0 };
}

/** What the meter and the details show: today, the last 30 days and this calendar month. */
export async function costReading(env: Environment, now: Date, signal?: AbortSignal): Promise<CostReading> {
  const today = localDay(now);
  const month = monthStart(today);
  const last30 = shiftDay(today, -29);
  const cost = await vertexCost({ env, now, since: month < last30 ? month : last30, ...(signal ? { signal } : {}) });
  const { report } = cost;
  const figure = (from: string): CostFigure => {
    const days = report.days.filter((day) => day.date >= from);
    const priced = days.filter((day) => day.costUsd !== null);
    return {
      costUsd: priced.length > 0 || days.length === 0 ? priced.reduce((n, day) => n + (day.costUsd as number), 0) : null,
      tokens: days.reduce((n, day) => n + day.totalTokens, 0),
    };
  };
  return {
    found: cost.found,
    complete: cost.complete,
    unreadableFiles: cost.unreadableFiles,
    today: figure(today),
    last30Days: figure(last30),
    month: figure(month),
    monthEndsAt: nextMonthStart(now),
    monthMinutes: localMonthMinutes(now),
    unpricedModels: report.unpricedModels.map((m) => m.model),
  };
}
