import type { Environment } from "../../../ports/environment.js";
import { localDay, shiftDay } from "./days.js";
import { logRoots, scanAgentLogs, type LogScan, type ScanOptions } from "./log-scan.js";
import { keptPrices } from "./price-list.js";
import { costBetween, costReport, type CostFigures, type CostReport, type Grouping } from "./report.js";
import { prices, usePrices, type Agent } from "./prices.js";

/**
 * The one aggregation every cost view reads: `quotabar cost`, `serve /cost` and its metrics, the
 * Vertex AI meter, and the `claude` and `codex` providers' details. No network.
 */

export const AGENTS: readonly Agent[] = ["claude", "codex"];

export interface LogCost {
  report: CostReport;
  agents: Agent[];
  /** Whether the logs hold any request at all, on any day. */
  found: boolean;
  /** False when the scan was stopped before every file was read. */
  complete: boolean;
  unreadableFiles: number;
  /** Lines that look like requests but could not be counted (not JSON, not an object, bad counts, too long). */
  skippedLines: number;
  /** Where the logs were looked for. */
  logRoots: string[];
  /** The date of the prices used. */
  pricesAsOf: string;
}

export interface LogCostOptions extends ScanOptions {
  env: Environment;
  now: Date;
  agents?: readonly Agent[];
  /** First local day (default: 29 days before today, so 30 with today). */
  since?: string | null;
  /** Last local day (default: today). */
  until?: string | null;
  by?: Grouping;
}

/** Reads the agents' logs (only what changed since the last run) and prices them. */
export async function scanAgents(env: Environment, agents: readonly Agent[], options: ScanOptions = {}): Promise<LogScan[]> {
  usePrices(await keptPrices(env));
  return scanAgentLogs(agents, env, options);
}

export async function logCost(options: LogCostOptions): Promise<LogCost> {
  const agents = [...new Set(options.agents?.length ? options.agents : AGENTS)];
  const today = localDay(options.now);
  const scans = await scanAgents(options.env, agents, options);
  const sources =
    options.by === "session" ? await Promise.all(scans.map(async (scan) => ({ ...scan, bySession: await scan.sessions() }))) : scans;
  return {
    report: costReport(sources, options.since ?? shiftDay(today, -29), options.until ?? today, options.by ?? "day"),
    agents,
    found: scans.some((scan) => Object.keys(scan.days).length > 0),
    complete: scans.every((scan) => scan.complete),
    unreadableFiles: scans.reduce((n, scan) => n + scan.unreadable, 0),
    skippedLines: scans.reduce((n, scan) => n + scan.skipped, 0),
    logRoots: agents.flatMap((agent) => logRoots(agent, options.env)),
    pricesAsOf: prices().asOf,
  };
}

/** What the `claude` and `codex` providers show: today's cost and, when a window is given, the cost inside it. */
export interface AgentCost {
  today: CostFigures;
  /** [start, end), to the quarter hour; null without a window. */
  window: CostFigures | null;
  complete: boolean;
  /** False when the agent's logs hold no request at all (not used here, or its logs are elsewhere). */
  anyRequest: boolean;
  pricesAsOf: string;
}

/**
 * The cost at API prices of one agent's requests today (local day) and inside [start, end) (the
 * provider's 5-hour window, from its reset time). Reads through the incremental index: a warm call
 * reads only what was appended since.
 */
export async function agentCost(
  agent: Agent,
  options: { env: Environment; now: Date; window?: { start: Date; end: Date } | null; signal?: AbortSignal },
): Promise<AgentCost> {
  const scans = await scanAgents(options.env, [agent], options.signal ? { signal: options.signal } : {});
  const today = localDay(options.now);
  return {
    today: costReport(scans, today, today).total,
    window: options.window ? costBetween(scans, options.window.start, options.window.end) : null,
    complete: scans.every((scan) => scan.complete),
    anyRequest: scans.some((scan) => Object.keys(scan.days).length > 0),
    pricesAsOf: prices().asOf,
  };
}
