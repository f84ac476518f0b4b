import type { Incident, ProviderStatus, StatusIndicator } from "../usage-document.js";
import { INDICATOR_LABEL, INDICATOR_RANK } from "./indicator.js";

/** Where the Google Workspace status dashboard lives; incident `uri`s are relative to it. */
export const GOOGLE_WORKSPACE_DASHBOARD = "https://www.google.com/appsstatus/dashboard/";

export interface GoogleWorkspaceUpdate {
  /** ISO-8601 UTC. */
  when: string | null;
  status: string | null;
  text: string | null;
}

/** One entry of `incidents.json`, dates already normalised to ISO-8601 UTC by the adapter. */
export interface GoogleWorkspaceIncident {
  id: string | null;
  uri: string | null;
  begin: string | null;
  end: string | null;
  modified: string | null;
  externalDesc: string | null;
  statusImpact: string | null;
  severity: string | null;
  /** Product ids; null when the key is absent (an empty list is not the same thing). */
  affectedProducts: readonly string[] | null;
  currentlyAffectedProducts: readonly string[] | null;
  mostRecentUpdate: GoogleWorkspaceUpdate | null;
  updates: readonly GoogleWorkspaceUpdate[] | null;
}

const STATUS_INDICATOR: Readonly<Record<string, StatusIndicator>> = {
  AVAILABLE: "none",
  SERVICE_INFORMATION: "minor",
  SERVICE_DISRUPTION: "major",
  SERVICE_OUTAGE: "critical",
  SERVICE_MAINTENANCE: "maintenance",
  SCHEDULED_MAINTENANCE: "maintenance",
};

const SEVERITY_INDICATOR: Readonly<Record<string, StatusIndicator>> = { low: "minor", medium: "major", high: "critical" };

interface Assessed {
  indicator: StatusIndicator;
  description: string | null;
  incident: Incident;
}

/**
 * Reference §6.3: the active incidents (no `end`) that name the product decide; the worst wins,
 * the earlier one on a tie. `currently_affected_products`, when the key is there at all, alone
 * says whether an incident still touches the product.
 */
export function googleWorkspaceStatus(incidents: readonly GoogleWorkspaceIncident[], productId: string, pageUrl: string): ProviderStatus {
  const relevant = incidents.filter((i) => i.end === null && (i.currentlyAffectedProducts ?? i.affectedProducts ?? []).includes(productId));
  if (relevant.length === 0) return { indicator: "none", description: INDICATOR_LABEL.none, url: pageUrl, incidents: [] };
  const assessed = relevant.map(assess);
  let worst = assessed[0] as Assessed;
  for (const candidate of assessed) if (INDICATOR_RANK[candidate.indicator] > INDICATOR_RANK[worst.indicator]) worst = candidate;
  const open = assessed
    .filter((a) => a.indicator !== "none")
    .sort((a, b) => INDICATOR_RANK[b.indicator] - INDICATOR_RANK[a.indicator])
    .map((a) => a.incident);
  return { indicator: worst.indicator, description: worst.description ?? INDICATOR_LABEL[worst.indicator], url: pageUrl, incidents: open };
}

function assess(incident: GoogleWorkspaceIncident): Assessed {
  const update = incident.mostRecentUpdate ?? incident.updates?.at(-1) ?? null;
  const indicator = indicatorOf(update?.status ?? incident.statusImpact, incident.severity);
  const description = incidentDescription(update?.text) ?? incidentDescription(incident.externalDesc);
  const name = incidentDescription(incident.externalDesc) ?? description ?? "Google Workspace incident";
  return {
    indicator,
    description,
    incident: {
      name,
      impact: indicator,
      url: incidentUrl(incident),
      updatedAt: update?.when ?? incident.modified ?? incident.begin,
    },
  };
}

/** The status word (upper-cased) decides; failing that, the severity; failing that, minor. */
export function indicatorOf(status: string | null | undefined, severity: string | null | undefined): StatusIndicator {
  const byStatus = status ? STATUS_INDICATOR[status.trim().toUpperCase()] : undefined;
  if (byStatus) return byStatus;
  return (severity ? SEVERITY_INDICATOR[severity.trim().toLowerCase()] : undefined) ?? "minor";
}

/**
 * The first line worth showing of an update: blank lines and the `**Summary**` /
 * `**Description**` headings are skipped; bold markers, Markdown links and a leading `- ` go.
 */
export function incidentDescription(text: string | null | undefined): string | null {
  if (!text) return null;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    const lower = line.toLowerCase();
    if (line === "" || lower.startsWith("**summary") || lower.startsWith("**description") || lower === "summary") continue;
    const cleaned = line
      .replaceAll("**", "")
      .replace(/\[([^[\]]*)\]\([^()]*\)/g, "$1")
      .replace(/^- /, "")
      .trim();
    if (cleaned !== "") return cleaned;
  }
  return null;
}

function incidentUrl(incident: GoogleWorkspaceIncident): string | null {
  try {
    if (incident.uri) return new URL(incident.uri, GOOGLE_WORKSPACE_DASHBOARD).href;
    if (incident.id) return new URL(`incidents/${encodeURIComponent(incident.id)}`, GOOGLE_WORKSPACE_DASHBOARD).href;
  } catch {
    // a uri that is not a URL just means no link
  }
  return null;
}
