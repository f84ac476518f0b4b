import { logCost, type LogCost } from "../providers/kit/cost/cost.js";
import type { Agent } from "../providers/kit/cost/prices.js";
import type { CostReport, Grouping } from "../providers/kit/cost/report.js";

/** `quotabar cost --json`: the report, and where it comes from. */
export type CostDocument = { version: 1; generatedAt: string; currency: "USD" } & CostReport & Omit<LogCost, "report">;

export interface CostRequest {
  agents: Agent[];
  since: string | null;
  until: string | null;
  by: Grouping;
}

/** A cold scan that takes longer than this shows its progress on stderr (a terminal only). */
const PROGRESS_AFTER_MS = 1_000;

/** The cost of the logs (the progress on a terminal's stderr while a long scan runs) and its document: for oclif's `cost` and the plain one alike. */
export async function runCost(request: CostRequest): Promise<{ cost: LogCost; doc: CostDocument }> {
  const now = new Date();
  const started = Date.now();
  const progress = process.stderr.isTTY
    ? (done: number, total: number) => {
        if (Date.now() - started > PROGRESS_AFTER_MS) process.stderr.write(`\rReading logs: ${done} of ${total} files`);
      }
    : undefined;
  // a CLI process of its own: a cold scan may read on a second thread
  const cost = await logCost({ env: process.env, now, ...request, helperThread: true, ...(progress ? { onProgress: progress } : {}) });
  if (progress && Date.now() - started > PROGRESS_AFTER_MS) process.stderr.write("\r\u001b[K");
  const { report, ...source } = cost;
  return { cost, doc: { version: 1, generatedAt: now.toISOString(), currency: "USD", ...report, ...source } };
}
