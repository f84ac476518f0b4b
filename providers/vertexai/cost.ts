import type { Environment } from "../../ports/environment.js";
import { claudeLogRoots } from "./claude-logs.js";
import { costReport, type CostReport } from "./cost-report.js";
import { localDay, localMonthMinutes, monthStart, nextMonthStart, shiftDay } from "./days.js";
import { scanVertexLogs } from "./log-scan.js";
import type { CostFigure, CostReading } from "./policy.js";

/** The Vertex AI cost found in the Claude Code logs on this machine (no network). */
export interface VertexCost {
  report: CostReport;
  /** Whether the logs hold any Vertex request at all, on any day. */
  found: boolean;
  /** False when the scan was stopped before every file was read. */
  complete: boolean;
  unreadableFiles: number;
  /** Where the logs were looked for. */
  logRoots: string[];
}

/** Days from `since` (default: 29 days ago, so 30 with today) to today. */
export async function vertexCost(options: {
  env: Environment;
  now: Date;
  since?: string | null;
  signal?: AbortSignal;
}): Promise<VertexCost> {
  const today = localDay(options.now);
  const scan = await scanVertexLogs(options.env, options.signal);
  return {
    report: costReport(scan.days, options.since ?? shiftDay(today, -29), today),
    found: Object.keys(scan.days).length > 0,
    complete: scan.complete,
    unreadableFiles: scan.unreadable,
    logRoots: claudeLogRoots(options.env),
  };
}

/** What the meter and the details show: today, the last 30 days and this calendar month. */
export async function costReading(env: Environment, now: Date, signal?: AbortSignal): Promise<CostReading> {
  const today = localDay(now);
  const month = monthStart(today);
  const last30 = shiftDay(today, -29);
  const cost = await vertexCost({ env, now, since: month < last30 ? month : last30, signal });
  const { report } = cost;
  const figure = (from: string): CostFigure => {
    const days = report.days.filter((day) => day.date >= from);
    const priced = days.filter((day) => day.costUsd !== null);
    return {
      costUsd: priced.length > 0 || days.length === 0 ? priced.reduce((sum, day) => sum + (day.costUsd as number), 0) : null,
      tokens: days.reduce((sum, day) => sum + day.totalTokens, 0),
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
    unpricedModels: report.unpricedModels,
  };
}
