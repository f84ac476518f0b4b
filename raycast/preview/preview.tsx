/**
 * `npm run preview:raycast`: the Raycast views without a Mac. Starts the provider simulator in
 * process, gets a usage document per scenario through the Raycast composition root (preferences
 * holding the simulator's keys, in-memory LocalStorage and Cache), renders the real menu-bar and
 * list components against the `@raycast/api` test double, turns the trees into HTML that imitates
 * macOS and Raycast, and screenshots them with headless Chromium.
 *
 * Output: preview-out/ (every scenario, index.html) and raycast/metadata/ (the Store screenshots).
 * PREVIEW_HTML_ONLY=1 skips the screenshots; CHROMIUM=/path picks the browser.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ReactElement } from "react";
import TestRenderer, { act, type ReactTestRendererJSON } from "react-test-renderer";
import { environment } from "../test/raycast-double/api.js";
import type { UsageDocument } from "../../domain/usage-document.js";
import type { ProviderListing } from "../../domain/usage-service.js";
import { menuBarModel } from "../../menubar-raycast/menu-bar-model.js";
import { UsageMenuBar } from "../../menubar-raycast/usage-menu-bar.js";
import { DESCRIPTORS } from "../../providers/registry.js";
import { ProviderSimulator } from "../../simulator/server.js";
import { PROVIDER_PREFERENCES, type QuotabarPreferences } from "../shared/preferences.js";
import { createRaycastCore } from "../shared/raycast-core.js";
import { signInProviders } from "../shared/remedy-view.js";
import { listModel } from "../src/list-model.js";
import { signInTexts } from "../src/sign-in-command.js";
import { SignInView } from "../src/sign-in-view.js";
import { UsageList } from "../src/usage-list.js";
import { memoryCache, memoryLocalStorage } from "../test/memory-stores.js";
import { iconPage, indexPage, listPage, menuBarPage, PAGE } from "./pages.js";
import { detailToHtml, listToHtml, menuBarToHtml } from "./tree-to-html.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
const quietError = console.error;
console.error = (...args: unknown[]) => {
  if (typeof args[0] === "string" && args[0].includes("react-test-renderer is deprecated")) return;
  quietError(...args);
};

const EXTENSION = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const REPO = resolve(EXTENSION, "..");
const OUT = join(REPO, "preview-out");
const METADATA = join(EXTENSION, "metadata");
const ASSETS = join(EXTENSION, "assets");

/** The screenshots' clock: every countdown and age is computed from it. */
const NOW = new Date("2026-11-20T16:00:00.000Z");

interface Scenario {
  id: string;
  title: string;
  caption: string;
  /** Simulator scenario per provider or status page (the others play "ok" / "operational"). */
  sim: Record<string, string>;
  /** An earlier fetch, hours before NOW, that leaves last good snapshots in Raycast's cache. */
  before?: { hoursAgo: number; sim: Record<string, string> };
  /** No provider set up: the new-user view. */
  empty?: boolean;
  /** The provider selected in the list (its detail pane is shown). */
  selected: string;
  showActions?: boolean;
  /** Which views go to the Store's metadata/, as quotabar-<n>.png. */
  metadata?: { list?: number; menuBar?: number };
}

const SCENARIOS: Scenario[] = [
  {
    id: "all-fine",
    title: "All fine",
    caption: "Every quota at a glance: the fullest meter in the menu bar, each provider's meters, plan and reset in the menu.",
    sim: { warp: "unlimited" },
    selected: "zai",
    metadata: { list: 1, menuBar: 2 },
  },
  {
    id: "near-limit",
    title: "One provider near its limit",
    caption: "OpenRouter at 95% of its credits turns the ring red, whichever provider it is.",
    sim: { openrouter: "near_limit" },
    selected: "openrouter",
    metadata: { menuBar: 3 },
  },
  {
    id: "unauthorized",
    title: "One provider unauthorized",
    caption: "A rejected key says so, with what to do about it.",
    sim: { warp: "unauthorized" },
    selected: "warp",
    showActions: true,
    metadata: { list: 5 },
  },
  {
    id: "stale",
    title: "One provider stale",
    caption: "When a fetch fails, the last good data stays, marked with its age and the error.",
    before: { hoursAgo: 2, sim: {} },
    sim: { zai: "upstream_500" },
    selected: "zai",
    metadata: { list: 4 },
  },
  {
    id: "incident",
    title: "A status-page incident",
    caption: "A polled status page with an incident badges the icon; details and View Status in the menu.",
    sim: { "status-github": "incident" },
    selected: "copilot",
    metadata: { menuBar: 6 },
  },
  {
    id: "new-user",
    title: "Nothing set up yet",
    caption: "A new user is told where the keys go.",
    sim: {},
    empty: true,
    selected: "",
  },
];

/** The providers the screenshots show (the ones the simulator plays), at most four so the menu fits. */
function shownProviders(sim: ProviderSimulator): string[] {
  const played = new Set(sim.providers.map((p) => p.id));
  return ["copilot", "openrouter", "zai", "warp", "kimi", "minimax", "kilo"].filter((id) => played.has(id)).slice(0, 4);
}

/** The simulator's keys as Raycast preferences (a key typed in Preferences is how a user sets a provider up). */
function preferencesFrom(env: Record<string, string>): QuotabarPreferences {
  const preferences: QuotabarPreferences = { statusChecks: true };
  for (const preference of PROVIDER_PREFERENCES) {
    if (preference.setting.field !== "apiKey") continue;
    const names = DESCRIPTORS.find((d) => d.id === preference.provider)?.credentialEnv ?? [];
    const value = names.map((n) => env[n]).find(Boolean);
    if (value) preferences[preference.name] = value;
  }
  return preferences;
}

/** The scenario's usage document, and the provider listing the list takes its "Not Set Up" rows from. */
async function documentFor(
  sim: ProviderSimulator,
  scenario: Scenario,
  home: string,
): Promise<{ document: UsageDocument; listing: ProviderListing[] }> {
  const env = sim.env();
  const cache = memoryCache();
  const core = (at: Date) =>
    createRaycastCore({
      preferences: scenario.empty ? {} : preferencesFrom(env),
      localStorage: memoryLocalStorage(),
      cache,
      env: { HOME: home, QUOTABAR_ORIGIN_MAP: env.QUOTABAR_ORIGIN_MAP },
      clock: { now: () => at },
    });
  const listing = await core(NOW).usage.listProviders();
  if (scenario.empty) return { document: { version: 1, generatedAt: NOW.toISOString(), providers: [] }, listing };
  const providers = shownProviders(sim);
  const fetchAt = async (at: Date, scenarios: Record<string, string>) => {
    for (const p of sim.providers) sim.setScenario(p.id, scenarios[p.id] ?? (p.scenarios.includes("ok") ? "ok" : p.scenarios[0]!));
    return core(at).usage.usage({ providers, status: true });
  };
  if (scenario.before) await fetchAt(new Date(NOW.getTime() - scenario.before.hoursAgo * 3_600_000), scenario.before.sim);
  return { document: await fetchAt(NOW, scenario.sim), listing };
}

/** The sign-in view while it waits for the user: a real device flow against the simulator (which keeps answering "pending"). */
async function loginTree(sim: ProviderSimulator, provider: string, home: string): Promise<ReactTestRendererJSON> {
  sim.setScenario(provider, "device_pending");
  const core = createRaycastCore({
    preferences: {},
    localStorage: memoryLocalStorage(),
    cache: memoryCache(),
    env: { HOME: home, QUOTABAR_ORIGIN_MAP: sim.env().QUOTABAR_ORIGIN_MAP },
    clock: { now: () => NOW },
  });
  let renderer: TestRenderer.ReactTestRenderer | undefined;
  await act(async () => {
    renderer = TestRenderer.create(
      <SignInView
        flow={() => core.signIn(provider)}
        texts={signInTexts(provider)}
        save={async () => "Raycast LocalStorage"}
        clock={() => NOW}
      />,
    );
  });
  const waiting = () => JSON.stringify(renderer!.toJSON()).includes("Waiting for you to authorize");
  for (let i = 0; i < 200 && !waiting(); i++) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
  }
  const reached = waiting();
  const tree = renderer!.toJSON();
  await act(async () => renderer!.unmount());
  if (!tree || Array.isArray(tree) || !reached) throw new Error("the sign-in view did not reach the code");
  return tree;
}

async function renderTree(element: ReactElement): Promise<ReactTestRendererJSON> {
  let renderer: TestRenderer.ReactTestRenderer | undefined;
  await act(async () => {
    renderer = TestRenderer.create(element);
  });
  const tree = renderer!.toJSON();
  await act(async () => renderer!.unmount());
  if (!tree || Array.isArray(tree)) throw new Error("the component rendered no single root");
  return tree;
}

function chromium(): string | null {
  const candidates = [process.env.CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
  return candidates.find((c): c is string => Boolean(c) && existsSync(c as string)) ?? null;
}

function screenshot(
  browser: string,
  html: string,
  png: string,
  size: { width: number; height: number; scale: number },
  transparent = false,
): void {
  const profile = mkdtempSync(join(tmpdir(), "quotabar-chromium-"));
  try {
    execFileSync(
      browser,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        `--user-data-dir=${profile}`,
        `--force-device-scale-factor=${size.scale}`,
        `--window-size=${size.width},${size.height}`,
        ...(transparent ? ["--default-background-color=00000000"] : []),
        `--screenshot=${png}`,
        `file://${html}`,
      ],
      { stdio: "pipe", timeout: 120_000 },
    );
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const htmlOnly = process.env.PREVIEW_HTML_ONLY === "1";
  const browser = htmlOnly ? null : chromium();
  if (!htmlOnly && !browser)
    throw new Error("Chromium not found: apt-get install -y chromium (or set CHROMIUM=/path, or PREVIEW_HTML_ONLY=1)");
  mkdirSync(OUT, { recursive: true });
  mkdirSync(METADATA, { recursive: true });
  mkdirSync(ASSETS, { recursive: true });

  const sim = await ProviderSimulator.start();
  const home = mkdtempSync(join(tmpdir(), "quotabar-preview-"));
  const index: { scenario: string; title: string; files: string[] }[] = [];
  try {
    for (const scenario of SCENARIOS) {
      const { document, listing } = await documentFor(sim, scenario, home);
      writeFileSync(join(OUT, `${scenario.id}.json`), `${JSON.stringify(document, null, 2)}\n`);

      environment.appearance = "light";
      const menuTree = await renderTree(<UsageMenuBar model={menuBarModel(document, NOW)} isLoading={false} onRefresh={() => undefined} />);
      environment.appearance = "dark";
      const listTree = await renderTree(
        <UsageList model={listModel(document, listing, NOW)} isLoading={false} onRefresh={() => undefined} />,
      );

      const pages = {
        "menu-bar": menuBarPage(`${scenario.title}: menu bar`, menuBarToHtml(menuTree), {
          heading: scenario.title,
          text: scenario.caption,
        }),
        list: listPage(
          `${scenario.title}: list`,
          listToHtml(listTree, {
            selected: scenario.selected,
            showActions: scenario.showActions ?? false,
            commandTitle: "Show Usage",
          }),
        ),
      };
      const files: string[] = [];
      for (const [view, html] of Object.entries(pages)) {
        const base = `${scenario.id}-${view}`;
        const htmlPath = join(OUT, `${base}.html`);
        writeFileSync(htmlPath, html);
        if (browser) {
          screenshot(browser, htmlPath, join(OUT, `${base}.png`), PAGE);
          files.push(`${base}.png`);
          const number = view === "list" ? scenario.metadata?.list : scenario.metadata?.menuBar;
          if (number) copyFileSync(join(OUT, `${base}.png`), join(METADATA, `quotabar-${number}.png`));
        } else files.push(`${base}.html`);
      }
      index.push({ scenario: scenario.id, title: scenario.title, files });
      console.log(
        `${scenario.id}: ${menuBarModel(document, NOW).title || "(no title)"} · ${document.providers.map((p) => `${p.id}${p.ok ? "" : p.stale ? " (stale)" : ` (${p.error?.code})`}`).join(", ") || "no providers"}`,
      );
    }
    environment.appearance = "dark";
    for (const { provider, title } of signInProviders()) {
      const base = `${provider}-login`;
      const loginHtml = join(OUT, `${base}.html`);
      writeFileSync(loginHtml, listPage(title, detailToHtml(await loginTree(sim, provider, home), { navigationTitle: title })));
      if (browser) screenshot(browser, loginHtml, join(OUT, `${base}.png`), PAGE);
      index.push({ scenario: base, title, files: [browser ? `${base}.png` : `${base}.html`] });
    }
    if (browser) {
      for (const theme of ["light", "dark"] as const) {
        const htmlPath = join(OUT, `icon-${theme}.html`);
        writeFileSync(htmlPath, iconPage(theme));
        screenshot(
          browser,
          htmlPath,
          join(ASSETS, theme === "light" ? "icon.png" : "icon@dark.png"),
          { width: 512, height: 512, scale: 1 },
          true,
        );
      }
    }
    writeFileSync(join(OUT, "index.html"), indexPage(index));
    console.log(`wrote ${OUT}/index.html${browser ? ` and ${METADATA}/quotabar-*.png` : ""}`);
  } finally {
    await sim.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
