import type { Incident, ProviderStatus, StatusIndicator } from "../usage-document.js";
import { componentsDescription, concernsFocus, focusOn, worstComponent, type ComponentFocus, type StatusComponent } from "./components.js";
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
  /** The ids of the components it names; null when the page did not say. */
  componentIds?: readonly string[] | null;
}

/** One entry of a Statuspage `components[]` (components.json, or the copy inside summary.json). */
export interface StatuspageComponent {
  id: string | null;
  name: string | null;
  status: string | null;
  /** A group of components (its status is the worst of theirs). */
  group: boolean;
  /** The group it belongs to. */
  groupId: string | null;
}

/** What a Statuspage v2 page said (summary.json, or status.json alone with no incidents). */
export interface StatuspageReading {
  indicator: string | null;
  description: string | null;
  incidents: StatuspageIncident[];
  /** The components summary.json lists (it may leave some out; components.json has them all). */
  components?: StatuspageComponent[];
}

const CLOSED = new Set(["resolved", "postmortem", "completed"]);
const MAINTENANCE_UNDERWAY = new Set(["in_progress", "verifying"]);

/**
 * The page's own indicator decides (lower-cased, so `Minor` counts); when it is missing or a
 * word we do not know, the worst open incident decides, and an unknown word with no incident
 * shows as minor so the badge still says "something is off".
 *
 * A provider that names its components (`focus`, e.g. Copilot on githubstatus.com) is judged by
 * them alone when the page lists them (components.json, else summary.json's copy): the worst of
 * their statuses is the indicator, the description says which is in trouble, and the incidents
 * that name only other components are left out.
 */
export function statuspageStatus(
  reading: StatuspageReading,
  pageUrl: string,
  focus: { names?: readonly string[]; components?: readonly StatuspageComponent[] | null } = {},
): ProviderStatus {
  const open = reading.incidents.filter(isOpen);
  const listed = focus.components ?? reading.components ?? [];
  const chosen = focusOnStatuspage(listed, focus.names);
  if (chosen !== null) {
    const indicator = worstComponent(chosen.components);
    const incidents = open.filter((i) => concernsFocus(i.componentIds ?? null, chosen));
    return {
      indicator,
      description: componentsDescription(chosen.components),
      url: pageUrl,
      incidents: incidents.map((i) => toIncident(i, pageUrl)),
    };
  }
  const raw = reading.indicator?.trim().toLowerCase() || null;
  let indicator: StatusIndicator;
  if (raw !== null && isIndicator(raw)) indicator = raw;
  else indicator = open.reduce<StatusIndicator>((worst, i) => worseOf(worst, impactIndicator(i)), raw === null ? "none" : "minor");
  const description = reading.description?.trim() || INDICATOR_LABEL[indicator];
  return { indicator, description, url: pageUrl, incidents: open.map((i) => toIncident(i, pageUrl)) };
}

/**
 * Statuspage's flat list as components with their group's name: a group counts through its
 * members (it stands for itself only when none is listed), and a named group's id is kept for
 * incidents that name the group.
 */
function focusOnStatuspage(listed: readonly StatuspageComponent[], names: readonly string[] | undefined): ComponentFocus | null {
  if (!names || names.length === 0 || listed.length === 0) return null;
  const groupName = new Map<string, string>();
  for (const c of listed) if (c.group && c.id && c.name) groupName.set(c.id, c.name);
  const withMembers = new Set(listed.flatMap((c) => (!c.group && c.groupId ? [c.groupId] : [])));
  const components: StatusComponent[] = [];
  for (const c of listed) {
    const name = c.name?.trim();
    if (!name || (c.group && c.id && withMembers.has(c.id))) continue;
    components.push({ id: c.id, name, status: c.status, groupName: c.groupId ? (groupName.get(c.groupId) ?? null) : null });
  }
  return focusOn(
    components,
    names,
    [...groupName].map(([id, name]) => [name, id] as const),
  );
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
