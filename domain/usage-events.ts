/**
 * Events worth telling someone about, computed from a provider's new usage and what was already
 * told (pure; kept by the NotifiedStateStore): a meter crossing a threshold upward (once per
 * threshold per window), a run-out forecast appearing in a window, a status page opening an incident.
 * An event holds ids, labels, numbers, times and the status page's own title and link: never a secret.
 */
import { accountKey, type AccountKey } from "./account.js";
import { entryOf } from "./config-entry.js";
import type { NotifyConfig, QuotabarConfig } from "../ports/config-store.js";
import type { NotifiedMeter, NotifiedState } from "../ports/notified-state.js";
import { METER_ROLES, type MeterRole } from "./meter.js";
import { sameWindow } from "./meter-window.js";
import type { Incident, ProviderStatus, ProviderUsage, StatusIndicator } from "./usage-document.js";

export interface ThresholdEvent {
  /** The provider's account (null: the default one). */
  account: string | null;
  type: "threshold";
  provider: string;
  meter: MeterRole;
  label: string;
  threshold: number;
  usedPercent: number;
  resetsAt: string | null;
  at: string;
}

export interface RunOutEvent {
  /** The provider's account (null: the default one). */
  account: string | null;
  type: "runOut";
  provider: string;
  meter: MeterRole;
  runsOutAt: string;
  resetsAt: string;
  at: string;
}

export interface IncidentEvent {
  /** The provider's account (null: the default one). */
  account: string | null;
  type: "incident";
  provider: string;
  indicator: StatusIndicator;
  title: string;
  url: string | null;
  at: string;
}

export type QuotabarEvent = ThresholdEvent | RunOutEvent | IncidentEvent;

/** Which events are told for a provider. */
export interface NotifySettings {
  thresholds: number[];
  runOut: boolean;
  incidents: boolean;
}

/** Without a `notify` in the config: 80 and 95 %, run-out forecasts and incidents. */
export const DEFAULT_NOTIFY: NotifySettings = { thresholds: [80, 95], runOut: true, incidents: true };

/** A meter without a reset time has no window to tell once per: a threshold is told again after usage fell this far below it. */
const REARM_BELOW_PERCENT = 5;
/** Incidents remembered per provider (the open ones; a page rarely has more than a few). */
const MAX_INCIDENTS = 50;
/** What an incident's own impact may say; "none" (or a word of the page's own) falls back to the page's indicator. */
const INCIDENT_INDICATORS: readonly string[] = ["minor", "major", "critical", "maintenance"];

/** The defaults, then the config's root `notify`, then the account's entry's, field by field. */
export function notifySettings(config: Pick<QuotabarConfig, "notify" | "providers">, key: AccountKey | string): NotifySettings {
  const account = typeof key === "string" ? accountKey(key) : key;
  const layers: (NotifyConfig | undefined)[] = [config.notify, entryOf(config, account).notify];
  let settings = DEFAULT_NOTIFY;
  for (const layer of layers) {
    if (!layer) continue;
    settings = {
      thresholds: layer.thresholds ?? settings.thresholds,
      runOut: layer.runOut ?? settings.runOut,
      incidents: layer.incidents ?? settings.incidents,
    };
  }
  return { ...settings, thresholds: [...new Set(settings.thresholds)].sort((a, b) => a - b) };
}

/** The events `usage` brings that `state` has not told yet, and the state that remembers them. */
export function newEvents(
  usage: ProviderUsage,
  state: NotifiedState | null,
  settings: NotifySettings,
  now: Date,
): { events: QuotabarEvent[]; state: NotifiedState } {
  const at = now.toISOString();
  const events: QuotabarEvent[] = [];
  const meters: NotifiedState["meters"] = { ...state?.meters };
  for (const role of METER_ROLES) {
    const meter = usage[role];
    if (!meter || meter.unlimited || meter.usedPercent === null) continue;
    const used = meter.usedPercent;
    const before = meters[role];
    const told: NotifiedMeter =
      before && sameWindow(before.resetsAt, meter.resetsAt, meter.windowMinutes)
        ? { ...before, thresholds: [...before.thresholds] }
        : { resetsAt: meter.resetsAt, thresholds: [], runOut: false };
    // the reset time as last seen: one that creeps a little each refresh stays the same window
    told.resetsAt = meter.resetsAt;
    if (meter.resetsAt === null) told.thresholds = told.thresholds.filter((t) => used >= t - REARM_BELOW_PERCENT);
    for (const threshold of settings.thresholds) {
      if (used < threshold || told.thresholds.includes(threshold)) continue;
      told.thresholds.push(threshold);
      events.push({
        type: "threshold",
        provider: usage.id,
        account: usage.account ?? null,
        meter: role,
        label: meter.label,
        threshold,
        usedPercent: used,
        resetsAt: meter.resetsAt,
        at,
      });
    }
    const runsOutAt = meter.pace?.runsOutAt ?? null;
    if (settings.runOut && runsOutAt !== null && meter.resetsAt !== null && !told.runOut) {
      told.runOut = true;
      events.push({
        type: "runOut",
        provider: usage.id,
        account: usage.account ?? null,
        meter: role,
        runsOutAt,
        resetsAt: meter.resetsAt,
        at,
      });
    }
    meters[role] = told;
  }
  let incidents = state?.incidents ?? [];
  if (settings.incidents && usage.status) {
    const open = usage.status.incidents;
    for (const incident of open) {
      if (incidents.includes(incidentKey(incident))) continue;
      events.push({
        type: "incident",
        provider: usage.id,
        account: usage.account ?? null,
        indicator: indicatorOf(incident, usage.status),
        title: incident.name,
        url: incident.url,
        at,
      });
    }
    // only the open ones are remembered: one that closed and opens again is news again
    incidents = open.map(incidentKey).slice(0, MAX_INCIDENTS);
  }
  return { events, state: { meters, incidents } };
}

/** An incident is known by its page's link, else by its title. */
function incidentKey(incident: Incident): string {
  return incident.url ?? `name:${incident.name}`;
}

function indicatorOf(incident: Incident, status: ProviderStatus): StatusIndicator {
  return INCIDENT_INDICATORS.includes(incident.impact) ? (incident.impact as StatusIndicator) : status.indicator;
}
