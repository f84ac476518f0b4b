import { toNumber, type FetchContext } from "../kit/index.js";
import type { AdcCredential } from "./adc.js";
import { costReading } from "./cost.js";
import type { VertexReading } from "./policy.js";
import { projectOf } from "./project.js";
import { quotaReading } from "./quota.js";

/** The share of the time budget the log scan may use; what it read by then is kept, and the next run goes on from there. */
const SCAN_SHARE = 0.8;

/** The quota, and the month's cost read alongside (its scan runs while the quota is asked for). */
export async function readVertex(credential: AdcCredential, context: FetchContext): Promise<VertexReading> {
  const scan = new AbortController();
  const cost = logCost(context, scan.signal);
  let project: string;
  let quota: Awaited<ReturnType<typeof quotaReading>>;
  try {
    project = await projectOf(context);
    quota = await quotaReading(credential, project, context);
  } catch (error) {
    // no cost without the quota: the scan stops (keeping what it read) and is done before the answer,
    // so nothing of this run writes to the cache after it
    scan.abort();
    await cost;
    throw error;
  }
  const budget = context.entry.costBudgetUsd;
  const budgetUsd = toNumber(budget);
  const usable = budgetUsd !== null && budgetUsd > 0;
  return {
    project,
    ...quota,
    ...(await cost),
    budgetUsd: usable ? budgetUsd : null,
    budgetIgnored: budget !== undefined && budget !== null && !usable,
  };
}

/** Never rejects: a log scan that fails costs the meter, not the quota. */
async function logCost(context: FetchContext, cancelled: AbortSignal): Promise<Pick<VertexReading, "cost" | "costProblem">> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  const timer = setTimeout(stop, context.timeoutMs * SCAN_SHARE);
  if (context.signal.aborted || cancelled.aborted) stop();
  context.signal.addEventListener("abort", stop, { once: true });
  cancelled.addEventListener("abort", stop, { once: true });
  try {
    return { cost: await costReading(context.env, context.now(), controller.signal), costProblem: null };
  } catch (error) {
    return { cost: null, costProblem: (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error)) };
  } finally {
    clearTimeout(timer);
    context.signal.removeEventListener("abort", stop);
    cancelled.removeEventListener("abort", stop);
  }
}
