import { Counter, Gauge, Registry } from "prom-client";
import { METER_ROLES } from "../../domain/meter.js";
import { withoutControls } from "../../domain/untrusted-text.js";
import type { StatusIndicator } from "../../domain/usage-document.js";
import type { ServeState } from "./serve-state.js";
import { costByPeriod } from "./cost-view.js";
import type { Environment } from "../../ports/environment.js";

/** The status page's indicator as a number an alert can compare (maintenance counts as minor). */
const INDICATOR_VALUES: Readonly<Record<StatusIndicator, number>> = { none: 0, minor: 1, major: 2, critical: 3, maintenance: 1 };

export interface Metrics {
  contentType: string;
  /** The exposition text of what the state holds now. */
  text(now: Date): Promise<string>;
}

/**
 * `/metrics`: the loop's state as Prometheus gauges (prom-client writes the text format). Labels
 * are the provider id, the meter's role (primary, secondary, tertiary) and its unit: a bounded set,
 * never an account, an e-mail or a plan. A provider that fails keeps its meters' series (the last
 * numbers it had) with quotabar_provider_up 0, so a dashboard's panels do not vanish.
 * quotabar_cost_usd is labelled by agent (claude, codex) and period (today, month) only.
 */
export function createMetrics(state: ServeState, env: Environment): Metrics {
  const registry = new Registry();
  const gauge = (name: string, help: string, labelNames: readonly string[]) =>
    new Gauge({ name, help, labelNames: [...labelNames], registers: [registry] });
  const meter = ["provider", "meter"] as const;
  const withUnit = ["provider", "meter", "unit"] as const;
  const g = {
    usedPercent: gauge("quotabar_meter_used_percent", "Percent of the meter's quota used (0-100).", meter),
    used: gauge("quotabar_meter_used", "Amount of the meter used, in its unit.", withUnit),
    limit: gauge("quotabar_meter_limit", "The meter's limit, in its unit.", withUnit),
    resetsAt: gauge("quotabar_meter_resets_at_seconds", "When the meter resets, in seconds since the Unix epoch.", meter),
    pace: gauge(
      "quotabar_meter_pace_delta_percent",
      "Percentage points the meter is ahead of (positive) or behind (negative) an even pace through its window.",
      meter,
    ),
    up: gauge("quotabar_provider_up", "1 when the provider's last fetch succeeded, else 0.", ["provider"]),
    age: gauge("quotabar_snapshot_age_seconds", "Seconds since the provider's numbers were fetched.", ["provider"]),
    duration: gauge("quotabar_fetch_duration_seconds", "How long the provider's last refresh took, in seconds.", ["provider"]),
    cost: gauge(
      "quotabar_cost_usd",
      "What the agent's logged requests would cost at API list prices, today or this month (local), in USD.",
      ["agent", "period"],
    ),
    status: gauge("quotabar_status_indicator", "The provider's status page: 0 none, 1 minor (or maintenance), 2 major, 3 critical.", [
      "provider",
    ]),
  };
  const refreshes = new Counter({
    name: "quotabar_refreshes_total",
    help: "Refreshes of the provider since quotabar serve started.",
    labelNames: ["provider"],
    registers: [registry],
  });

  const fill = (now: Date) => {
    for (const metric of [...Object.values(g), refreshes]) metric.reset();
    for (const served of state.providers()) {
      const provider = served.latest.id;
      g.up.set({ provider }, served.latest.ok ? 1 : 0);
      g.duration.set({ provider }, served.fetchDurationMs / 1000);
      refreshes.inc({ provider }, served.refreshes);
      const status = served.latest.status ?? served.withMeters?.status ?? null;
      if (status) g.status.set({ provider }, INDICATOR_VALUES[status.indicator] ?? 0);
      const numbers = served.withMeters;
      if (!numbers) continue;
      const fetchedAt = numbers.fetchedAt ? Date.parse(numbers.fetchedAt) : NaN;
      if (Number.isFinite(fetchedAt)) g.age.set({ provider }, Math.max(0, (now.getTime() - fetchedAt) / 1000));
      for (const role of METER_ROLES) {
        const m = numbers[role];
        if (!m) continue;
        const labels = { provider, meter: role };
        const unit = { ...labels, unit: unitLabel(m.unit) };
        if (m.usedPercent !== null && !m.unlimited) g.usedPercent.set(labels, m.usedPercent);
        if (m.used !== null) g.used.set(unit, m.used);
        if (m.limit !== null) g.limit.set(unit, m.limit);
        const resetsAt = m.resetsAt ? Date.parse(m.resetsAt) : NaN;
        if (Number.isFinite(resetsAt)) g.resetsAt.set(labels, resetsAt / 1000);
        // pace is optional in the document: only meters that have one get the series
        if (m.pace && typeof m.pace.deltaPercent === "number") g.pace.set(labels, m.pace.deltaPercent);
      }
    }
  };

  return {
    contentType: registry.contentType,
    async text(now) {
      fill(now);
      // from the logs' index (only appended lines are read); a scan that fails costs these series, not the others
      for (const { agent, period, usd } of await costByPeriod(env, now).catch(() => [])) g.cost.set({ agent, period }, usd);
      return registry.metrics();
    },
  };
}

/** A unit as a label value: the policy's word ("USD", "credits"), bounded; "" for a meter without one. */
function unitLabel(unit: string | null): string {
  return unit ? withoutControls(unit).slice(0, 32) : "";
}
