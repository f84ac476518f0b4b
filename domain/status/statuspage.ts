import type { Incident, ProviderStatus, StatusIndicator } from "../usage-document.js";
import { INDICATOR_LABEL, isIndicator, worseOf } from "./indicator.js";
import { trimTrailingSlashes } from "../url-text.js";

/** One entry of a Statuspage `incidents[]` or `scheduled_maintenances[]`, every field optional. */
export interface StatuspageIncident {
  id: string | null;
  name: string | null;
  /** `none|minor|major|critical` for incidents, usually `maintenance` for maintenances. */
  impact: string | null;
  /** `investigating|identified|monitoring|resolved|postmortem`, or `scheduled|in_progress|verifying|completed`. */
  status: string | null;
  shortlink: string | null;
  /** ISO-8601 UTC, already normalised by the adapter (null when absent or unparseable). */
  updatedAt: string | null;
  resolvedAt: string | null;
  maintenance: boolean;
}

/** What a Statuspage v2 page said (summary.json, or status.json alone with no incidents). */
export interface StatuspageReading {
  indicator: string | null;
  description: string | null;
  incidents: StatuspageIncident[];
}

const CLOSED = new Set(["resolved", "postmortem", "completed"]);
const MAINTENANCE_UNDERWAY = new Set(["in_progress", "verifying"]);

/**
 * The page's own indicator decides (lower-cased, so `Minor` counts); when it is missing or a
 * word we do not know, the worst open incident decides, and an unknown word with no incident
 * shows as minor so the badge still says "something is off".
 */
export function statuspageStatus(reading: StatuspageReading, pageUrl: string): ProviderStatus {
  const open = reading.incidents.filter(isOpen);
  const raw = reading.indicator?.trim().toLowerCase() || null;
  let indicator: StatusIndicator;
  if (raw !== null && isIndicator(raw)) indicator = raw;
  else indicator = open.reduce<StatusIndicator>((worst, i) => worseOf(worst, impactIndicator(i)), raw === null ? "none" : "minor");
  const description = reading.description?.trim() || INDICATOR_LABEL[indicator];
  return { indicator, description, url: pageUrl, incidents: open.map((i) => toIncident(i, pageUrl)) };
}

function isOpen(incident: StatuspageIncident): boolean {
  const status = incident.status?.trim().toLowerCase() ?? null;
  if (incident.maintenance) return status !== null && MAINTENANCE_UNDERWAY.has(status);
  return incident.resolvedAt === null && (status === null || !CLOSED.has(status));
}

function impactIndicator(incident: StatuspageIncident): StatusIndicator {
  if (incident.maintenance) return "maintenance";
  const impact = incident.impact?.trim().toLowerCase() ?? "";
  return isIndicator(impact) ? impact : "minor";
}

function toIncident(incident: StatuspageIncident, pageUrl: string): Incident {
  const impact = incident.maintenance ? "maintenance" : incident.impact?.trim().toLowerCase() || "unknown";
  const url = incident.shortlink?.trim() || (incident.id ? `${trimTrailingSlashes(pageUrl)}/incidents/${incident.id}` : null);
  return { name: incident.name?.trim() || "Unnamed incident", impact, url, updatedAt: incident.updatedAt };
}
