import type { StatusIndicator } from "../usage-document.js";
import { INDICATOR_LABEL, INDICATOR_RANK } from "./indicator.js";

/**
 * Reference §7 (HEAD): a component's status word as an indicator. The reference maps any other
 * word to `unknown`, which the usage document has no room for: it counts as minor, so a word we
 * do not know still says "something is off" (the rule the page indicator follows too).
 */
const COMPONENT_INDICATOR: Readonly<Record<string, StatusIndicator>> = {
  operational: "none",
  degraded_performance: "minor",
  partial_outage: "major",
  major_outage: "critical",
  full_outage: "critical",
  under_maintenance: "maintenance",
};

const COMPONENT_LABEL: Readonly<Record<string, string>> = {
  operational: "Operational",
  degraded_performance: "Degraded performance",
  partial_outage: "Partial outage",
  major_outage: "Major outage",
  full_outage: "Full outage",
  under_maintenance: "Under maintenance",
};

/** At most this many components are named in a description; the rest are counted. */
const DESCRIBED = 3;

/** One component of a status page (Statuspage `components.json`, or an incident.io page's structure). */
export interface StatusComponent {
  /** The page's id for it; incidents name their components by it. */
  id: string | null;
  name: string;
  /** The raw status word (`operational`, `degraded_performance`…); null when the page gave none. */
  status: string | null;
  /** The name of the group it sits in, if any. */
  groupName: string | null;
}

/** Which components speak for a provider, and the ids incidents may name them by. */
export interface ComponentFocus {
  components: StatusComponent[];
  ids: ReadonlySet<string>;
}

const key = (text: string | null | undefined) => text?.trim().toLowerCase() ?? "";

/** The status word, normalised: trimmed, lower-case, and `operational` when the page left it out. */
export function componentWord(status: string | null | undefined): string {
  return key(status) || "operational";
}

export function componentIndicator(status: string | null | undefined): StatusIndicator {
  return COMPONENT_INDICATOR[componentWord(status)] ?? "minor";
}

/**
 * The components a provider names (by component or group name, case-insensitive), out of a
 * page's list; null when it names none, or none of them is on the page (then the page decides).
 * `groupIds` are the ids of matched groups, which incidents may name instead of the components.
 */
export function focusOn(
  components: readonly StatusComponent[],
  names: readonly string[] | undefined,
  groupIds: Iterable<readonly [name: string, id: string]> = [],
): ComponentFocus | null {
  const wanted = new Set((names ?? []).map(key).filter((name) => name !== ""));
  if (wanted.size === 0) return null;
  const chosen = components.filter((c) => wanted.has(key(c.name)) || wanted.has(key(c.groupName)));
  if (chosen.length === 0) return null;
  const ids = new Set<string>();
  for (const c of chosen) if (c.id) ids.add(c.id);
  for (const [name, id] of groupIds) if (wanted.has(key(name))) ids.add(id);
  return { components: chosen, ids };
}

/** The worst status among the components; none for an empty list. */
export function worstComponent(components: readonly StatusComponent[]): StatusIndicator {
  let worst: StatusIndicator = "none";
  for (const c of components) {
    const indicator = componentIndicator(c.status);
    if (INDICATOR_RANK[indicator] > INDICATOR_RANK[worst]) worst = indicator;
  }
  return worst;
}

/**
 * What is wrong, component by component: `Copilot: Degraded performance`, worst first, three at
 * most (`(+2 more)`); `Operational` when nothing is.
 */
export function componentsDescription(components: readonly StatusComponent[]): string {
  const troubled = components
    .map((c, order) => ({ c, order, rank: INDICATOR_RANK[componentIndicator(c.status)] }))
    .filter((entry) => componentWord(entry.c.status) !== "operational")
    .sort((a, b) => b.rank - a.rank || a.order - b.order);
  if (troubled.length === 0) return INDICATOR_LABEL.none;
  const named = troubled.slice(0, DESCRIBED).map(({ c }) => `${c.name}: ${COMPONENT_LABEL[componentWord(c.status)] ?? "Status unknown"}`);
  const more = troubled.length - DESCRIBED;
  return named.join("; ") + (more > 0 ? ` (+${more} more)` : "");
}

/** An incident (or maintenance) concerns the focus when it names one of its components, or names none at all. */
export function concernsFocus(componentIds: readonly string[] | null, focus: ComponentFocus | null): boolean {
  if (focus === null || componentIds === null || componentIds.length === 0) return true;
  return componentIds.some((id) => focus.ids.has(id));
}

/** The component mapping also grades an incident.io incident's `current_worst_impact`. */
export function impactOf(status: string | null | undefined): string {
  return key(status) === "" ? "unknown" : componentIndicator(status);
}
