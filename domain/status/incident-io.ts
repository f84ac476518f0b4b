import type { Incident, ProviderStatus } from "../usage-document.js";
import { componentsDescription, concernsFocus, focusOn, impactOf, worstComponent, type StatusComponent } from "./components.js";
import { trimTrailingSlashes } from "../url-text.js";

/** One entry of an incident.io page's `ongoing_incidents[]`, every field optional. */
export interface IncidentIoIncident {
  id: string | null;
  name: string | null;
  /** `degraded_performance|partial_outage|full_outage`. */
  currentWorstImpact: string | null;
  /** ISO-8601 UTC, already normalised by the adapter. */
  updatedAt: string | null;
  /** The ids of the components it names; null when the page did not say. */
  componentIds: readonly string[] | null;
}

/**
 * What an incident.io page's proxy feed (`https://<host>/proxy/<host>`) said: its visible
 * components (groups flattened, hidden ones dropped) with the status `affected_components`
 * gives them (operational when not listed), the ids of its groups by name, and the ongoing
 * incidents.
 */
export interface IncidentIoReading {
  components: StatusComponent[];
  groups: readonly (readonly [name: string, id: string])[];
  incidents: IncidentIoIncident[];
}

/** The page's own words from its Statuspage-style `status.json`, when it answered. */
export interface StatusOverlay {
  indicator: string | null;
  description: string | null;
}

/**
 * Reference §7 (HEAD): the worst component decides the indicator. A provider that names its
 * components is judged by those alone (when the page has them); otherwise every visible
 * component counts, and the page's `status.json` description is shown when it says the same
 * thing (else the components in trouble are named).
 */
export function incidentIoStatus(
  reading: IncidentIoReading,
  pageUrl: string,
  names: readonly string[] | undefined,
  overlay: StatusOverlay | null,
): ProviderStatus {
  const focus = focusOn(reading.components, names, reading.groups);
  const counted = focus?.components ?? reading.components;
  const indicator = worstComponent(counted);
  const pageSays = overlay?.indicator?.trim().toLowerCase() === indicator ? overlay.description?.trim() : undefined;
  const description = focus === null && pageSays ? pageSays : componentsDescription(counted);
  const incidents = reading.incidents.filter((i) => concernsFocus(i.componentIds, focus)).map((i) => toIncident(i, pageUrl));
  return { indicator, description, url: pageUrl, incidents };
}

/** The whole page decides (the provider names no component on it): its `status.json` words are worth asking for. */
export function wholePageDecides(reading: IncidentIoReading, names: readonly string[] | undefined): boolean {
  return focusOn(reading.components, names, reading.groups) === null;
}

function toIncident(incident: IncidentIoIncident, pageUrl: string): Incident {
  const url = incident.id ? `${trimTrailingSlashes(pageUrl)}/incidents/${encodeURIComponent(incident.id)}` : null;
  return {
    name: incident.name?.trim() || "Unnamed incident",
    impact: impactOf(incident.currentWorstImpact),
    url,
    updatedAt: incident.updatedAt,
  };
}
