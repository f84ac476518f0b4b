/**
 * The preview's scenarios, and what each one must show. A screenshot is named after its scenario
 * (and the Store's are published), so before any file is written the document and the HTML are
 * checked against the scenario: the "unauthorized" shot must hold the rejected key's error, the
 * "all fine" shot no error at all. A check that fails stops the preview instead of writing a
 * picture of something else (a network error, say).
 */
import type { UsageDocument } from "../../domain/usage-document.js";
import { hasIncident } from "../../presentation/severity.js";
import { escapeHtml } from "./markdown.js";

export interface Scenario {
  id: string;
  title: string;
  caption: string;
  /** Simulator scenario per provider or status page (the others play "ok" / their first). */
  sim: Record<string, string>;
  /** An earlier fetch, hours before the screenshots' clock, that leaves last good snapshots in Raycast's cache. */
  before?: { hoursAgo: number; sim: Record<string, string> };
  /** No provider set up: the new-user view. */
  empty?: boolean;
  /** The provider selected in the list (its detail pane is shown). */
  selected: string;
  showActions?: boolean;
  /** Which views go to the Store's metadata/, as quotabar-<n>.png (`npm run preview:raycast:store`). */
  metadata?: { list?: number; menuBar?: number };
  /** What the views must show; every shown provider not named here must be fine (no error, not stale). */
  expect: {
    /** Providers failing with this error code (and no last good data). */
    errors?: Record<string, string>;
    /** Providers showing last good data, marked stale, with the error of the failed fetch. */
    stale?: string[];
    /** Providers whose primary meter is at least 90% used. */
    nearLimit?: string[];
    /** Providers whose status page reports an incident. */
    incident?: string[];
    /** Providers with an unlimited primary meter. */
    unlimited?: string[];
  };
}

export const SCENARIOS: readonly Scenario[] = [
  {
    id: "all-fine",
    title: "All fine",
    caption: "Every quota at a glance: the fullest meter in the menu bar, each provider's meters, plan and reset in the menu.",
    sim: { warp: "unlimited" },
    selected: "zai",
    metadata: { list: 1, menuBar: 2 },
    expect: { unlimited: ["warp"] },
  },
  {
    id: "near-limit",
    title: "One provider near its limit",
    caption: "OpenRouter at 95% of its credits turns the ring red, whichever provider it is.",
    sim: { openrouter: "near_limit" },
    selected: "openrouter",
    metadata: { menuBar: 3 },
    expect: { nearLimit: ["openrouter"] },
  },
  {
    id: "unauthorized",
    title: "One provider unauthorized",
    caption: "A rejected key says so, with what to do about it.",
    sim: { warp: "unauthorized" },
    selected: "warp",
    showActions: true,
    metadata: { list: 5 },
    expect: { errors: { warp: "unauthorized" } },
  },
  {
    id: "stale",
    title: "One provider stale",
    caption: "When a fetch fails, the last good data stays, marked with its age and the error.",
    before: { hoursAgo: 2, sim: {} },
    sim: { zai: "upstream_500" },
    selected: "zai",
    metadata: { list: 4 },
    expect: { stale: ["zai"] },
  },
  {
    id: "incident",
    title: "A status-page incident",
    caption: "A polled status page with an incident badges the icon; details and View Status in the menu.",
    sim: { "status-github": "incident" },
    selected: "copilot",
    metadata: { menuBar: 6 },
    expect: { incident: ["copilot"] },
  },
  {
    id: "new-user",
    title: "Nothing set up yet",
    caption: "A new user is told where the keys go.",
    sim: {},
    empty: true,
    selected: "",
    expect: {},
  },
];

/** Where a scenario's views are written, and the Store file each one is copied to (`npm run preview:raycast:store`). */
export function storeFiles(scenarios: readonly Scenario[] = SCENARIOS): { from: string; to: string }[] {
  return scenarios
    .flatMap((s) => [
      ...(s.metadata?.list ? [{ from: `${s.id}-list.png`, number: s.metadata.list }] : []),
      ...(s.metadata?.menuBar ? [{ from: `${s.id}-menu-bar.png`, number: s.metadata.menuBar }] : []),
    ])
    .sort((a, b) => a.number - b.number)
    .map(({ from, number }) => ({ from, to: `quotabar-${number}.png` }));
}

/** Text no screenshot may show unless its scenario asks for it: a fetch that failed on the wire. */
const WIRE_FAILURE = /network error|ECONNRESET|ECONNREFUSED|socket hang up|timed out/i;

/**
 * What is wrong with a scenario's document and views, as sentences (empty when the screenshots
 * would show what the scenario names). `providers` are the ones the scenario set up.
 */
export function scenarioProblems(
  scenario: Scenario,
  document: UsageDocument,
  providers: readonly string[],
  html: { list: string; menuBar: string },
): string[] {
  const problems: string[] = [];
  const { errors = {}, stale = [], nearLimit = [], incident = [], unlimited = [] } = scenario.expect;
  const shown = document.providers.map((p) => p.id);
  if (scenario.empty) {
    if (shown.length > 0) problems.push(`shows ${shown.join(", ")} although nothing is set up`);
    if (!html.list.includes("Add an API Key to Get Started")) problems.push("the list does not invite the new user to add a key");
    return problems;
  }
  const missing = providers.filter((id) => !shown.includes(id));
  if (missing.length > 0) problems.push(`misses ${missing.join(", ")}`);
  for (const usage of document.providers) {
    const code = errors[usage.id];
    const said = usage.error ? `${usage.error.code}: ${usage.error.message}` : "no error";
    if (code !== undefined) {
      if (usage.error?.code !== code || usage.stale) problems.push(`${usage.id} should fail with ${code} but shows ${said}`);
      else if (!html.list.includes(escapeHtml(usage.error.message)) || !html.menuBar.includes(escapeHtml(usage.name)))
        problems.push(`${usage.id}'s error is not in the views`);
    } else if (stale.includes(usage.id)) {
      if (!usage.stale || !usage.error) problems.push(`${usage.id} should be stale with an error but shows ${said}`);
      else if (WIRE_FAILURE.test(usage.error.message)) problems.push(`${usage.id} is stale from a wire failure (${said})`);
    } else if (!usage.ok || usage.error || usage.stale) {
      problems.push(`${usage.id} should be fine but shows ${said}${usage.stale ? " (stale)" : ""}`);
    }
    const used = usage.primary?.usedPercent ?? null;
    if (nearLimit.includes(usage.id) && !(used !== null && used >= 90))
      problems.push(`${usage.id} should be near its limit but its primary meter is at ${used ?? "no"}%`);
    if (unlimited.includes(usage.id) && !usage.primary?.unlimited) problems.push(`${usage.id} should be unlimited`);
    if (incident.includes(usage.id) !== hasIncident(usage.status))
      problems.push(`${usage.id} should ${incident.includes(usage.id) ? "" : "not "}show a status incident`);
  }
  const selected = document.providers.find((p) => p.id === scenario.selected);
  if (!selected) problems.push(`the selected provider ${scenario.selected} is not shown`);
  else if (!html.list.includes(`<h2>${escapeHtml(selected.name)}</h2>`))
    problems.push(`the list's detail pane does not show ${selected.name}`);
  problems.push(...timeProblems(document, html));
  const expectedWireFailure = Object.keys(errors).length > 0 && Object.values(errors).includes("network");
  for (const [view, text] of Object.entries(html)) {
    const failure = WIRE_FAILURE.exec(text);
    if (failure && !expectedWireFailure) problems.push(`the ${view} shows "${failure[0]}"`);
  }
  return problems;
}

/** An ISO time as an upstream sends it: never shown to people as it is. */
const RAW_ISO_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

/**
 * The demo's consistency rules, for a screenshot too: every reset still ahead and inside its window
 * (no 5-hour window that "resets in 3d 20h"), and no raw ISO time in what the views show.
 */
export function timeProblems(document: UsageDocument, html: { list: string; menuBar: string }): string[] {
  const problems: string[] = [];
  const now = Date.parse(document.generatedAt);
  for (const usage of document.providers) {
    for (const meter of [usage.primary, usage.secondary, usage.tertiary]) {
      if (!meter?.resetsAt) continue;
      const left = Date.parse(meter.resetsAt) - now;
      if (left <= 0)
        problems.push(`${usage.id} ${meter.label} resets at ${meter.resetsAt}, before the screenshot's ${document.generatedAt}`);
      else if (meter.windowMinutes !== null && left > meter.windowMinutes * 60_000)
        problems.push(
          `${usage.id} ${meter.label} resets in ${Math.round(left / 60_000)} minutes, beyond its ${meter.windowMinutes}-minute window`,
        );
    }
  }
  for (const [view, text] of Object.entries(html)) {
    const raw = RAW_ISO_TIME.exec(text);
    if (raw) problems.push(`the ${view} shows a raw time (${raw[0]}…)`);
  }
  return problems;
}
