import type { AgentCostFigures } from "../../../domain/agent-cost.js";
import type { Environment } from "../../../ports/environment.js";
import type { FetchContext } from "../../../ports/fetch-context.js";
import type { Agent } from "./prices.js";

const SESSION_MS = 5 * 60 * 60_000;
/** A cold scan of a large log history may take seconds: it never holds the quota's answer longer than this. */
const COST_BUDGET_MS = 4_000;

export interface AgentCostSource<Reading> {
  agent: Agent;
  /** When the reading's 5-hour session resets (ISO), so its window is [reset − 5 h, reset); null without one. */
  sessionResetOf(reading: Reading): string | null;
  /** The environment the agent's log reader sees: the account's own home (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`). */
  logsEnv(context: FetchContext): Environment;
}

/**
 * A fetch whose reading also carries the agent's cost at API prices (today's, this session's), read
 * from the agent's own logs through the incremental index. The cost is a detail: a scan that fails
 * or runs past its budget leaves it out (null), never the quota's answer.
 */
export function withAgentCost<Credential, Reading extends { cost?: AgentCostFigures | null }>(
  source: AgentCostSource<Reading>,
  fetch: (credential: Credential, context: FetchContext) => Promise<Reading>,
): (credential: Credential, context: FetchContext) => Promise<Reading> {
  return async (credential, context) => {
    const reading = await fetch(credential, context);
    return { ...reading, cost: await costOf(source, reading, context) };
  };
}

async function costOf<Reading>(
  source: AgentCostSource<Reading>,
  reading: Reading,
  context: FetchContext,
): Promise<AgentCostFigures | null> {
  const reset = Date.parse(source.sessionResetOf(reading) ?? "");
  const window = Number.isFinite(reset) ? { start: new Date(reset - SESSION_MS), end: new Date(reset) } : null;
  try {
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(Math.floor(Math.min(COST_BUDGET_MS, context.timeoutMs / 3)))]);
    const { agentCost } = await import("./cost.js");
    const cost = await agentCost(source.agent, { env: source.logsEnv(context), now: context.now(), window, signal });
    if (!cost.complete || !cost.anyRequest) return null;
    return { today: cost.today.costUsd, sessionWindow: cost.window?.costUsd ?? null };
  } catch {
    return null;
  }
}
