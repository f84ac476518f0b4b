import type { Environment } from "../../ports/environment.js";

/** What `serve` answers about cost: `/cost` (the document of `quotabar cost --json`) and the figures of `/metrics`. Read from the logs' index, no network. */

export async function costDocument(env: Environment, now: Date): Promise<unknown> {
  const { logCost } = await import("../../providers/kit/cost/cost.js");
  const { report, ...source } = await logCost({ env, now });
  return { version: 1, generatedAt: now.toISOString(), currency: "USD", ...report, ...source };
}

/** Each agent's cost today and this calendar month (local days). */
export async function costByPeriod(env: Environment, now: Date): Promise<{ agent: string; period: "today" | "month"; usd: number }[]> {
  const [{ logCost, AGENTS }, { localDay, monthStart }] = await Promise.all([
    import("../../providers/kit/cost/cost.js"),
    import("../../providers/kit/cost/days.js"),
  ]);
  const today = localDay(now);
  const { report } = await logCost({ env, now, since: monthStart(today) });
  return AGENTS.flatMap((agent) => {
    const rows = report.days.flatMap((day) =>
      day.models.filter((m) => m.agent === agent).map((m) => ({ day: day.date, usd: m.costUsd ?? 0 })),
    );
    const sum = (from: string) => rows.filter((r) => r.day >= from).reduce((n, r) => n + r.usd, 0);
    return [
      { agent, period: "today" as const, usd: sum(today) },
      { agent, period: "month" as const, usd: sum(monthStart(today)) },
    ];
  });
}
