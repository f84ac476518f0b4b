import { relative } from "node:path";
import { filesUnder, providerCache, type FoundFile } from "../index.js";
import type { Environment } from "../../../ports/environment.js";
import { claudeLogRoots, isClaudeLog } from "./claude-logs.js";
import { codexLogRoots, isCodexLog } from "./codex-logs.js";
import { timeZone } from "./days.js";
import { allSums, countedSums, withoutSession } from "./counted-sums.js";
import { loadIndex, saveIndex, type FileRecord, type IndexSums, type Sums } from "./log-index.js";
import { readJobs, type ReadJob, type ReadOptions } from "./read-threads.js";
import { prices, type Agent } from "./prices.js";

/** Brings the agents' log indexes up to date: unchanged files are not read, grown ones only from where the last read stopped. */

/** Where an agent's log files are. */
interface AgentLogs {
  roots(env: Environment): string[];
  accept(name: string): boolean;
  /** The roots are copies of one tree (Codex's sessions/ and archived_sessions/): a file under the same name in both is one. */
  oneTree?: boolean;
}

const AGENT_LOGS: Record<Agent, AgentLogs> = {
  claude: { roots: claudeLogRoots, accept: isClaudeLog },
  codex: { roots: codexLogRoots, accept: (name) => isCodexLog(name) && name.startsWith("rollout-"), oneTree: true },
};

export const logRoots = (agent: Agent, env: Environment): string[] => AGENT_LOGS[agent].roots(env);

export interface LogScan extends IndexSums {
  agent: Agent;
  /** Every file's requests per quarter hour, row and session (read from the per-file records: only for `--by session`). */
  sessions(): Promise<Sums>;
  /** False when the scan was stopped (the time budget): some files are counted as of an earlier run, or not at all. */
  complete: boolean;
  filesRead: number;
  bytesRead: number;
  /** Files (or folders) that could not be read: permissions, removed while scanning. */
  unreadable: number;
}

export interface ScanOptions extends ReadOptions {
  /** The size of a shard of the kept records aimed at (log-index.ts; tests lower it). */
  shardBytes?: number;
}

/** The prices the index's costs were computed with: a change of table (or a fetched one) rebuilds it. */
function pricesId(): string {
  const table = prices();
  let hash = 0x811c9dc5;
  for (const char of JSON.stringify(table.models)) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return `${table.asOf}:${hash.toString(36)}`;
}

export async function scanLogs(agent: Agent, env: Environment, options: ScanOptions = {}): Promise<LogScan> {
  return (await scanAgentLogs([agent], env, options))[0] as LogScan;
}

/**
 * Each agent's scan. The files that changed, of every agent, are read together (on two threads
 * when there is much to read), the largest agent's first, and each agent's index is made and
 * saved as soon as its last file is read: the largest's while the other's files are still read.
 */
export async function scanAgentLogs(agents: readonly Agent[], env: Environment, options: ScanOptions = {}): Promise<LogScan[]> {
  const plans = await Promise.all(agents.map((agent) => planScan(agent, env, options)));
  const scans = plans.map((plan) => {
    let left = plan.jobs.length;
    const read = new Promise<void>((resolve) => {
      if (left === 0) resolve();
      for (const job of plan.jobs) job.done = () => --left === 0 && resolve();
    });
    return read.then(() => plan.finish());
  });
  const bytes = (plan: ScanPlan) => plan.jobs.reduce((n, job) => n + job.file.size, 0);
  const order = [...plans].sort((a, b) => bytes(b) - bytes(a));
  // within an agent, the largest files first: the last ones read, on either thread, are small
  await readJobs(
    order.flatMap((plan) => [...plan.jobs].sort((a, b) => b.file.size - a.file.size)),
    options,
  );
  return Promise.all(scans);
}

interface ScanPlan {
  jobs: ReadJob[];
  /** Keeps what was read and answers the scan. */
  finish(): Promise<LogScan>;
}

async function planScan(agent: Agent, env: Environment, options: ScanOptions): Promise<ScanPlan> {
  const logs = AGENT_LOGS[agent];
  // the index is checked as it is read, and a file it does not cover is read again: no fsync (six waits on the disk of every save)
  const store = providerCache(env, { durable: false });
  const zone = timeZone();
  const index = await loadIndex(store, agent, pricesId(), zone);
  const sessions = (records: () => Promise<Record<string, FileRecord>>) => async () => allSums(await records());
  const scan: LogScan = {
    agent,
    days: index.days,
    recent: index.recent,
    skipped: index.skipped,
    sessions: sessions(index.records),
    complete: true,
    filesRead: 0,
    bytesRead: 0,
    unreadable: 0,
  };
  const found = await findFiles(logs, env, scan);
  const unchanged = (file: FoundFile) => index.stamps[file.path]?.[0] === file.size && index.stamps[file.path]?.[1] === file.mtimeMs;
  if (found.length === Object.keys(index.stamps).length && found.every(unchanged)) return { jobs: [], finish: async () => scan };

  const kept = await index.records();
  const records: Record<string, FileRecord> = {};
  const jobs: ReadJob[] = [];
  for (const file of found) {
    const old = kept[file.path];
    if (old && old.size === file.size && old.mtimeMs === file.mtimeMs) records[file.path] = old;
    else jobs.push({ agent, file, old: old ?? null });
  }
  const finish = async (): Promise<LogScan> => {
    for (const job of jobs) {
      if (job.read) {
        records[job.file.path] = job.read.record;
        scan.filesRead++;
        scan.bytesRead += job.read.bytesRead;
        continue;
      }
      // counted as of the last run, if ever
      if (job.failed === "stopped") scan.complete = false;
      else scan.unreadable++;
      if (job.old) records[job.file.path] = job.old;
    }
    const counted = countedSums(records, withoutSession);
    // kept even when the scan stopped: the next run goes on from there
    const saved = await saveIndex(store, agent, pricesId(), zone, records, counted, Date.now(), {
      keptShards: index.shards,
      shardBytes: options.shardBytes,
    });
    return { ...scan, ...saved, sessions: sessions(async () => records) };
  };
  return { jobs, finish };
}

/** The agent's log files; a root or folder that cannot be listed is counted, not fatal. */
async function findFiles(logs: AgentLogs, env: Environment, scan: LogScan): Promise<FoundFile[]> {
  const roots = logs.roots(env);
  const list = async (dirs: string[]) => {
    try {
      return await filesUnder(dirs, logs.accept, () => scan.unreadable++);
    } catch {
      scan.unreadable++;
      return [];
    }
  };
  if (!logs.oneTree) return list(roots);
  const found: FoundFile[] = [];
  const seen = new Set<string>();
  for (const root of roots) {
    for (const file of await list([root])) {
      const name = relative(root, file.path);
      if (seen.has(name)) continue;
      seen.add(name);
      found.push(file);
    }
  }
  return found;
}
