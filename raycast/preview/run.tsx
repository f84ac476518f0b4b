/**
 * The preview itself: starts the provider simulator in a child process, gets a usage document per
 * scenario through the Raycast composition root, renders the real menu-bar and list components
 * against the `@raycast/api` test double, checks that the views show what the scenario names,
 * turns the trees into HTML that imitates macOS and Raycast, and screenshots them with headless
 * Chromium (asynchronously). Everything goes to one output folder; nothing else is written.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ReactElement } from "react";
import TestRenderer, { act, type ReactTestRendererJSON } from "react-test-renderer";
import { menuBarModel } from "../../menubar-raycast/menu-bar-model.js";
import { UsageMenuBar } from "../../menubar-raycast/usage-menu-bar.js";
import { signInProviders } from "../shared/remedy-view.js";
import { listModel } from "../src/list-model.js";
import { signInTexts } from "../src/sign-in-command.js";
import { SignInView } from "../src/sign-in-view.js";
import { UsageList } from "../src/usage-list.js";
import { environment } from "../doubles/raycast-api/api.js";
import { screenshot } from "./chromium.js";
import { documentFor, oneConnectionPerRequest, previewCore, type Simulator } from "./documents.js";
import { iconPage, indexPage, listPage, menuBarPage, PAGE } from "./pages.js";
import { PreviewError } from "./problems.js";
import { menuBarDocument, scenarioProblems, SCENARIOS, titleOptionsFor, viewsOf, type Scenario } from "./scenarios.js";
import { SimulatorProcess } from "./simulator-client.js";
import { detailToHtml, listToHtml, menuBarToHtml } from "./tree-to-html.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
const quietError = console.error;
console.error = (...args: unknown[]) => {
  if (typeof args[0] === "string" && args[0].includes("react-test-renderer is deprecated")) return;
  quietError(...args);
};

/**
 * The screenshots' clock: every countdown and age is computed from it. The simulator moves its
 * fixtures' times to the moment they are served (as `quotabar demo` does), so a reset reads as it
 * did when the fixture was recorded: minutes from the run's start, the same pictures each run.
 */
export const NOW = new Date();

/** How long the sign-in view may take to show the device code (it asks the simulator for one). */
const SIGN_IN_TIMEOUT_MS = 20_000;

export interface PreviewOptions {
  /** The output folder; emptied first, and the only place anything is written. */
  out: string;
  /** Chromium to take the PNGs with; null writes HTML only. */
  browser: string | null;
  scenarios?: readonly Scenario[];
  log?: (line: string) => void;
}

/** The sign-in view while it waits for the user: a real device flow against the simulator (which keeps answering "pending"). */
async function loginTree(sim: Simulator, provider: string, home: string): Promise<ReactTestRendererJSON> {
  await sim.play({ [provider]: "device_pending" });
  const core = previewCore(sim, { home, at: NOW, preferences: {} });
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
  const shown = () => JSON.stringify(renderer!.toJSON());
  const waiting = () => shown().includes("Waiting for you to authorize");
  const started = Date.now();
  while (!waiting() && Date.now() - started < SIGN_IN_TIMEOUT_MS) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
  }
  const reached = waiting();
  const tree = renderer!.toJSON();
  await act(async () => renderer!.unmount());
  if (!tree || Array.isArray(tree) || !reached) {
    const markdown = /"markdown":"((?:[^"\\]|\\.)*)"/.exec(JSON.stringify(tree))?.[1] ?? "nothing";
    throw new PreviewError(`the ${provider} sign-in view did not reach the device code; it shows: ${markdown.slice(0, 200)}`);
  }
  return tree;
}

async function renderTree(element: ReactElement): Promise<ReactTestRendererJSON> {
  let renderer: TestRenderer.ReactTestRenderer | undefined;
  await act(async () => {
    renderer = TestRenderer.create(element);
  });
  const tree = renderer!.toJSON();
  await act(async () => renderer!.unmount());
  if (!tree || Array.isArray(tree)) throw new PreviewError("a view rendered no single root");
  return tree;
}

/** Runs every scenario into `options.out`: HTML (and PNG with a browser) per view, the documents, the icons, index.html. */
export async function runPreview(options: PreviewOptions): Promise<{ files: string[] }> {
  const { out, browser, scenarios = SCENARIOS, log = console.log } = options;
  oneConnectionPerRequest();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const written: string[] = [];
  const write = (name: string, text: string) => {
    writeFileSync(join(out, name), text);
    written.push(name);
    return join(out, name);
  };
  const shoot = async (html: string, png: string, size = PAGE, transparent = false) => {
    await screenshot(browser!, html, join(out, png), size, transparent);
    written.push(png);
  };

  const sim = await SimulatorProcess.start();
  const home = mkdtempSync(join(tmpdir(), "quotabar-preview-"));
  const index: { scenario: string; title: string; files: string[] }[] = [];
  try {
    for (const scenario of scenarios) {
      const { document, listing, providers, history } = await documentFor(sim, scenario, home, NOW);
      const views = viewsOf(scenario);
      const model = menuBarModel(menuBarDocument(scenario, document), NOW, "auto", {}, titleOptionsFor(scenario));
      environment.appearance = "light";
      const menuTree = await renderTree(<UsageMenuBar model={model} isLoading={false} onRefresh={() => undefined} />);
      environment.appearance = "dark";
      const listTree = await renderTree(
        <UsageList model={listModel(document, listing, NOW, { history })} isLoading={false} onRefresh={() => undefined} />,
      );
      const menu = menuBarToHtml(menuTree);
      const list = listToHtml(listTree, {
        selected: scenario.selected,
        showActions: scenario.showActions ?? false,
        commandTitle: "Show Usage",
      });
      const problems = scenarioProblems(scenario, document, providers, { list, menuBar: `${menu.item}${menu.menu}` });
      if (problems.length > 0)
        throw new PreviewError(`the "${scenario.title}" screenshots would not show what they name: ${problems.join("; ")}`);

      write(`${scenario.id}.json`, `${JSON.stringify(document, null, 2)}\n`);
      const pages = {
        ...(views.includes("menuBar")
          ? { "menu-bar": menuBarPage(`${scenario.title}: menu bar`, menu, { heading: scenario.title, text: scenario.caption }, NOW) }
          : {}),
        ...(views.includes("list") ? { list: listPage(`${scenario.title}: list`, list) } : {}),
      };
      const files: string[] = [];
      for (const [view, html] of Object.entries(pages)) {
        const base = `${scenario.id}-${view}`;
        const htmlPath = write(`${base}.html`, html);
        if (browser) await shoot(htmlPath, `${base}.png`);
        files.push(browser ? `${base}.png` : `${base}.html`);
      }
      index.push({ scenario: scenario.id, title: scenario.title, files });
      log(
        `${scenario.id}: ${model.title || "(no title)"} · ${document.providers.map((p) => `${p.id}${p.ok ? "" : p.stale ? " (stale)" : ` (${p.error?.code})`}`).join(", ") || "no providers"}`,
      );
    }
    environment.appearance = "dark";
    for (const { provider, title } of signInProviders()) {
      const base = `${provider}-login`;
      const htmlPath = write(
        `${base}.html`,
        listPage(title, detailToHtml(await loginTree(sim, provider, home), { navigationTitle: title })),
      );
      if (browser) await shoot(htmlPath, `${base}.png`);
      index.push({ scenario: base, title, files: [browser ? `${base}.png` : `${base}.html`] });
      log(`${base}: waiting for the user, device code shown`);
    }
    for (const theme of ["light", "dark"] as const) {
      const htmlPath = write(`icon-${theme}.html`, iconPage(theme));
      if (browser) await shoot(htmlPath, theme === "light" ? "icon.png" : "icon@dark.png", { width: 512, height: 512, scale: 1 }, true);
    }
    write("index.html", indexPage(index));
    return { files: written };
  } finally {
    await sim.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
