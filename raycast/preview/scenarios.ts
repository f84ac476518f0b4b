/**
 * The preview's scenarios, and what each one must show. A screenshot is named after its scenario
 * (and the Store's are published), so before any file is written the document and the HTML are
 * checked against the scenario: the "unauthorized" shot must hold the rejected key's error, the
 * "all fine" shot no error at all. A check that fails stops the preview instead of writing a
 * picture of something else (a network error, say).
 */
import type { MeterRole } from "../../domain/meter.js";
import type { UsageDocument } from "../../domain/usage-document.js";
import { DEFAULT_TITLE, menuBarTitle, ROTATION, type ShownMode, type TitleOptions } from "../../menubar-raycast/menu-bar-title.js";
import { hasIncident, metersOf } from "../../presentation/severity.js";
import { paceView } from "../shared/pace-view.js";
import { escapeHtml } from "./markdown.js";

/** The two views a scenario can be drawn in. */
export type PreviewView = "list" | "menuBar";

/** Readings of one meter before the screenshot, kept in the history as earlier refreshes would have kept them. */
export interface EarlierReadings {
  provider: string;
  meter: MeterRole;
  readings: readonly { minutesAgo: number; usedPercent: number }[];
}

export interface Scenario {
  id: string;
  title: string;
  caption: string;
  /** The providers set up and shown, in the list's order (default SHOWN_PROVIDERS). */
  providers?: readonly string[];
  /** The ones the menu shows: fewer fit the menu than the list has rows (default MENU_BAR_PROVIDERS). */
  menuBarProviders?: readonly string[];
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
  /** The views drawn (default both): a title mode is a menu-bar picture. */
  views?: readonly PreviewView[];
  /** The menu-bar title preferences (default Percent). */
  menuBarTitle?: Partial<TitleOptions>;
  /** Earlier readings kept before the screenshot's fetch: the pace follows them, the list charts them. */
  history?: EarlierReadings;
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
    /** Providers with a meter forecast to run out before its reset. */
    runsOut?: string[];
    /** No meter is forecast to run out (a picture captioned "all fine" must not show one). */
    nothingRunsOut?: boolean;
    /** What the menu-bar title shows ("rotate": any of Rotate's modes, and not always the same one). */
    title?: ShownMode | "rotate";
  };
}

/**
 * The providers a scenario sets up and shows unless it names its own: the coding assistants most
 * people watch (set up by their own sign-in files in the preview's HOME, Cursor by its cookie), then
 * some set up by a key typed in Preferences.
 */
export const SHOWN_PROVIDERS = ["claude", "codex", "cursor", "gemini", "copilot", "openrouter", "zai", "warp"] as const;

/** The providers a menu shows unless its scenario names its own: three providers' meters fit the picture. */
export const MENU_BAR_PROVIDERS = ["claude", "codex", "zai"] as const;

/** A meter's earlier readings, as [minutes ago, used percent] pairs. */
const earlier = (provider: string, meter: MeterRole, readings: readonly [number, number][]): EarlierReadings => ({
  provider,
  meter,
  readings: readings.map(([minutesAgo, usedPercent]) => ({ minutesAgo, usedPercent })),
});

/** What the burst of the runs-out scenario looks like: z.ai's 5-hour tokens, 5 % to 29 % in the last 45 minutes. */
const BURST = earlier("zai", "primary", [
  [45, 5],
  [30, 12],
  [15, 20],
]);

export const SCENARIOS: readonly Scenario[] = [
  {
    id: "all-fine",
    title: "All fine",
    caption: "Every quota at a glance: the fullest meter in the menu bar, each provider's meters, plan and reset in the menu.",
    providers: ["claude", "codex", "cursor", "copilot", "openrouter", "warp"],
    menuBarProviders: ["claude", "codex", "copilot"],
    sim: { warp: "unlimited" },
    selected: "claude",
    metadata: { list: 1, menuBar: 2 },
    expect: { unlimited: ["warp"], nothingRunsOut: true },
  },
  {
    id: "near-limit",
    title: "One provider at its limit",
    caption: "Gemini CLI's Pro requests are used up: the ring turns red, whichever provider it is.",
    menuBarProviders: ["claude", "codex", "gemini"],
    sim: { gemini: "standard" },
    selected: "gemini",
    metadata: { menuBar: 3 },
    expect: { nearLimit: ["gemini"] },
  },
  {
    id: "unauthorized",
    title: "One provider unauthorized",
    caption: "A rejected key says so, with what to do about it.",
    menuBarProviders: ["claude", "codex", "warp"],
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
    menuBarProviders: ["claude", "codex", "zai"],
    before: { hoursAgo: 2, sim: {} },
    sim: { zai: "upstream_500" },
    selected: "zai",
    metadata: { list: 4 },
    expect: { stale: ["zai"] },
  },
  {
    id: "incident",
    title: "A status-page incident",
    caption: "An incident on Claude's status page badges the icon; its details and View Status in the menu.",
    menuBarProviders: ["claude", "codex"],
    sim: { "status-claude": "incident" },
    selected: "claude",
    metadata: { menuBar: 6 },
    expect: { incident: ["claude"] },
  },
  {
    id: "runs-out",
    title: "A quota that runs out before its reset",
    caption: "After a burst, z.ai's 5-hour tokens run out before the window resets: the menu bar says when, the list charts it.",
    sim: {},
    history: BURST,
    selected: "zai",
    menuBarTitle: { mode: "runsOut" },
    expect: { runsOut: ["zai"], title: "runsOut" },
  },
  {
    id: "title-pace",
    title: "Menu-bar title: Pace",
    caption: "How far usage is ahead of the share of its window gone, for the meter most at risk; pace and run-out under each meter.",
    sim: {},
    selected: "zai",
    views: ["menuBar"],
    menuBarTitle: { mode: "pace" },
    expect: { title: "pace" },
  },
  {
    id: "title-both",
    title: "Menu-bar title: Both",
    caption: "The percent and the pace of the same meter.",
    sim: {},
    selected: "zai",
    views: ["menuBar"],
    menuBarTitle: { mode: "both" },
    expect: { title: "both" },
  },
  {
    id: "title-reset",
    title: "Menu-bar title: Reset time",
    caption: "When the fullest meter resets.",
    sim: {},
    selected: "zai",
    views: ["menuBar"],
    menuBarTitle: { mode: "reset" },
    expect: { title: "reset" },
  },
  {
    id: "title-runs-out-compact",
    title: "Menu-bar title: Runs out, compact",
    caption: "When the meter most at risk runs out at this pace, in as few characters as it takes.",
    sim: {},
    selected: "zai",
    views: ["menuBar"],
    menuBarTitle: { mode: "runsOut", compact: true },
    expect: { runsOut: ["zai"], title: "runsOut" },
  },
  {
    id: "title-rotate",
    title: "Menu-bar title: Rotate",
    caption: "Percent, pace, reset and run-out in turn, every minute or more.",
    sim: {},
    selected: "zai",
    views: ["menuBar"],
    menuBarTitle: { mode: "rotate" },
    expect: { title: "rotate" },
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
  const inMenu = new Set(menuBarDocument(scenario, document).providers.map((p) => p.id));
  const drawsList = viewsOf(scenario).includes("list");
  if (scenario.empty) {
    if (shown.length > 0) problems.push(`shows ${shown.join(", ")} although nothing is set up`);
    if (!html.list.includes("Add an API Key to Get Started")) problems.push("the list does not invite the new user to add a key");
    return problems;
  }
  const missing = providers.filter((id) => !shown.includes(id));
  if (missing.length > 0) problems.push(`misses ${missing.join(", ")}`);
  const menuMissing = (scenario.menuBarProviders ?? []).filter((id) => !shown.includes(id));
  if (menuMissing.length > 0) problems.push(`the menu misses ${menuMissing.join(", ")}`);
  // what the scenario is about is in its menu too (an unlimited meter may be the list's alone)
  const { runsOut = [] } = scenario.expect;
  const about = [...Object.keys(errors), ...stale, ...nearLimit, ...incident, ...runsOut].filter((id) => !inMenu.has(id));
  if (viewsOf(scenario).includes("menuBar") && about.length > 0) problems.push(`the menu leaves out ${[...new Set(about)].join(", ")}`);
  for (const usage of document.providers) {
    const code = errors[usage.id];
    const said = usage.error ? `${usage.error.code}: ${usage.error.message}` : "no error";
    if (code !== undefined) {
      if (usage.error?.code !== code || usage.stale) problems.push(`${usage.id} should fail with ${code} but shows ${said}`);
      else if (
        !html.list.includes(escapeHtml(usage.error.message)) ||
        (inMenu.has(usage.id) && !html.menuBar.includes(escapeHtml(usage.name)))
      )
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
  else if (drawsList && !html.list.includes(`<h2>${escapeHtml(selected.name)}</h2>`))
    problems.push(`the list's detail pane does not show ${selected.name}`);
  problems.push(...paceProblems(scenario, document, html));
  problems.push(...timeProblems(document, html));
  const expectedWireFailure = Object.keys(errors).length > 0 && Object.values(errors).includes("network");
  for (const [view, text] of Object.entries(html)) {
    const failure = WIRE_FAILURE.exec(text);
    if (failure && !expectedWireFailure) problems.push(`the ${view} shows "${failure[0]}"`);
  }
  return problems;
}

/** What the scenario's menu shows of `document`: the providers of its menu. */
export function menuBarDocument(scenario: Scenario, document: UsageDocument): UsageDocument {
  const shown: readonly string[] = scenario.menuBarProviders ?? MENU_BAR_PROVIDERS;
  return { ...document, providers: document.providers.filter((p) => shown.includes(p.id)) };
}

/** The views a scenario is drawn in. */
export function viewsOf(scenario: Scenario): readonly PreviewView[] {
  return scenario.views ?? ["list", "menuBar"];
}

/** The scenario's menu-bar title preferences. */
export function titleOptionsFor(scenario: Scenario): TitleOptions {
  return { ...DEFAULT_TITLE, ...scenario.menuBarTitle };
}

/**
 * The pace a scenario names, and every pace the document has, in the views: each meter's pace line
 * in the menu; the title in the mode asked for; a forecast that runs out (from the kept readings
 * when the scenario keeps some) in both views, and its chart in the list.
 */
function paceProblems(scenario: Scenario, document: UsageDocument, html: { list: string; menuBar: string }): string[] {
  const problems: string[] = [];
  const now = new Date(document.generatedAt);
  const menu = menuBarDocument(scenario, document);
  for (const usage of menu.providers) {
    for (const meter of metersOf(usage)) {
      const pace = paceView(meter, now);
      if (pace && !html.menuBar.includes(escapeHtml(pace.deltaLine)))
        problems.push(`the menu bar does not show ${usage.id} ${meter.label}'s pace`);
    }
  }
  if (scenario.expect.nothingRunsOut) {
    for (const usage of document.providers)
      for (const meter of metersOf(usage))
        if (meter.pace?.runsOutAt)
          problems.push(`${usage.id} ${meter.label} runs out before its reset, in a scenario where nothing should`);
  }
  for (const id of scenario.expect.runsOut ?? []) {
    const usage = document.providers.find((p) => p.id === id);
    const running = usage ? metersOf(usage).filter((m) => m.pace?.runsOutAt) : [];
    if (running.length === 0) {
      problems.push(`${id} should have a meter that runs out before its reset, but none does`);
      continue;
    }
    if (!html.menuBar.includes("runs out in") && !/out \d/.test(html.menuBar))
      problems.push(`the menu bar does not say when ${id} runs out`);
    if (viewsOf(scenario).includes("list") && !html.list.includes("runs out in"))
      problems.push(`the list does not say when ${id} runs out`);
    const kept = scenario.history?.provider === id ? usage?.[scenario.history.meter] : null;
    if (kept) {
      if (kept.pace?.basis !== "history")
        problems.push(`${id} ${kept.label}'s pace does not come from the kept readings (${kept.pace?.basis ?? "no pace"})`);
      if (viewsOf(scenario).includes("list") && scenario.selected === id && !html.list.includes("data:image/svg+xml;base64,"))
        problems.push(`the list's detail pane does not chart ${id} ${kept.label}`);
    }
  }
  const expected = scenario.expect.title;
  if (expected !== undefined) {
    const options = titleOptionsFor(scenario);
    const title = menuBarTitle(menu, now, "auto", options);
    if (title.text === "" || !html.menuBar.includes(`<span class="status-title">${escapeHtml(title.text)}</span>`))
      problems.push(`the menu-bar title is not drawn (${title.text || "empty"})`);
    if (expected === "rotate") {
      const modes = new Set(
        Array.from(
          { length: ROTATION.length },
          (_, i) => menuBarTitle(menu, new Date(now.getTime() + i * options.rotateSeconds * 1000), "auto", options).shown,
        ),
      );
      if (modes.size < 2) problems.push(`the rotating title shows only ${[...modes].join(", ")}`);
    } else if (title.shown !== expected) problems.push(`the menu-bar title shows ${title.shown}, not ${expected}`);
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
