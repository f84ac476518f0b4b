import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_FLAGS, screenshot } from "../preview/chromium.js";
import { copyToStore } from "../preview/command.js";
import { documentFor, oneConnectionPerRequest, preferencesFrom } from "../preview/documents.js";
import { listPage } from "../preview/pages.js";
import { findChromium, missingExtensionDependencies, missingFont } from "../preview/problems.js";
import { NOW as PREVIEW_NOW, runPreview } from "../preview/run.js";
import { menuBarDocument, scenarioProblems, SCENARIOS, storeFiles, timeProblems, viewsOf, type Scenario } from "../preview/scenarios.js";
import { SimulatorProcess } from "../preview/simulator-client.js";
import { listToHtml } from "../preview/tree-to-html.js";
import { menuBarModel } from "../../menubar-raycast/menu-bar-model.js";
import { DEFAULT_TITLE } from "../../menubar-raycast/menu-bar-title.js";
import { listModel } from "../src/list-model.js";
import { UsageList } from "../src/usage-list.js";
import { copilot, doc, listing, NOW, usage, warp, warpUnauthorized, warpUnlimited, zaiPaced, zaiStale } from "./documents.js";
import { render } from "./render.js";

const extension = resolve(fileURLToPath(new URL("..", import.meta.url)));
const repo = resolve(extension, "..");
const scenario = (id: string): Scenario => SCENARIOS.find((s) => s.id === id)!;
const chromium = findChromium(process.env, existsSync).path;

async function listHtml(document: ReturnType<typeof doc>, selected: string): Promise<string> {
  const view = await render(<UsageList model={listModel(document, listing(), NOW)} isLoading={false} onRefresh={() => undefined} />);
  const tree = view.toJSON();
  if (!tree || Array.isArray(tree)) throw new Error("no single root");
  return listToHtml(tree, { selected, commandTitle: "Show Usage" });
}

/** What the tracked files the preview used to overwrite look like now. */
function trackedOutputs(): Record<string, number> {
  const files: Record<string, number> = {};
  for (const folder of ["metadata", "assets"]) {
    for (const name of readdirSync(join(extension, folder))) files[`${folder}/${name}`] = statSync(join(extension, folder, name)).mtimeMs;
  }
  return files;
}

describe("preview: a missing dependency is one line saying what to run", () => {
  it("names the command that installs the extension's dependencies", () => {
    const line = missingExtensionDependencies("/nowhere/raycast", () => false);
    expect(line).toBe(
      "the Raycast extension's dependencies are not installed (react, react-test-renderer): run (cd raycast && npm ci) first",
    );
    expect(missingExtensionDependencies(extension, existsSync)).toBeNull();
  });

  it("says how to get Chromium, or that CHROMIUM points nowhere", () => {
    const none = findChromium({ PATH: "/nowhere" }, (p) => p.startsWith("/usr/bin/"));
    expect(none.problem).toMatch(/^Chromium not found: install it \(apt-get install -y chromium.*PREVIEW_HTML_ONLY=1 for HTML only$/);
    expect(findChromium({ PATH: "/opt/bin:/usr/bin" }, (p) => p === "/usr/bin/chromium")).toEqual({ path: "/usr/bin/chromium" });
    expect(findChromium({ CHROMIUM: "/opt/chrome", PATH: "/usr/bin" }, () => false).problem).toBe(
      "CHROMIUM=/opt/chrome does not exist: point it at a Chromium or Chrome binary, or unset it",
    );
    expect(missingFont("DejaVu Sans\nDejaVu Serif\n")).toMatch(/apt-get install -y fonts-inter/);
    expect(missingFont("DejaVu Sans\nInter,Inter Medium\n")).toBeNull();
    expect(missingFont(null)).toBeNull();
  });

  it("prints that line alone, with no stack trace, and exits 1 without writing anything", async () => {
    const before = trackedOutputs();
    const failure = await promisify(execFile)(
      process.execPath,
      [
        join(repo, "node_modules", "vite-node", "vite-node.mjs"),
        "--root",
        extension,
        "--config",
        join(extension, "vitest.config.ts"),
        join(extension, "preview", "preview.ts"),
      ],
      { cwd: repo, env: { ...process.env, CHROMIUM: "/nonexistent/chromium", PREVIEW_HTML_ONLY: "" }, timeout: 60_000 },
    ).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure!.stderr.trim()).toBe(
      "preview: CHROMIUM=/nonexistent/chromium does not exist: point it at a Chromium or Chrome binary, or unset it",
    );
    expect(trackedOutputs()).toEqual(before);
  }, 60_000);
});

describe("preview: a screenshot shows what its scenario names, or is not written", () => {
  const wireFailure = usage({
    id: "warp",
    name: "Warp",
    ok: false,
    source: null,
    fetchedAt: null,
    error: { code: "network", message: "Warp network error talking to 127.0.0.1:41234: read ECONNRESET", hint: null },
  });
  const shown = ["copilot", "warp"];

  it("refuses an unauthorized shot whose provider failed on the wire instead", async () => {
    const document = doc(copilot, wireFailure);
    const problems = scenarioProblems(scenario("unauthorized"), document, shown, {
      list: await listHtml(document, "warp"),
      menuBar: "GitHub Copilot Warp",
    });
    expect(problems).toContain(
      "warp should fail with unauthorized but shows network: Warp network error talking to 127.0.0.1:41234: read ECONNRESET",
    );
    expect(problems).toContain('the list shows "network error"');
  });

  it("refuses an all-fine shot with an error or stale data in it", async () => {
    const withError = doc(copilot, warpUnauthorized);
    expect(scenarioProblems(scenario("all-fine"), withError, shown, { list: await listHtml(withError, "warp"), menuBar: "" })).toEqual(
      expect.arrayContaining([expect.stringMatching(/^warp should be fine but shows unauthorized: /), "warp should be unlimited"]),
    );
    const stale = doc(copilot, zaiStale);
    expect(
      scenarioProblems(scenario("all-fine"), stale, ["copilot", "zai"], { list: await listHtml(stale, "zai"), menuBar: "" }),
    ).toContain("zai should be fine but shows upstream: z.ai API error: HTTP 500 (stale)");
  });

  it("accepts the shots that show their scenario", async () => {
    const unauthorized = doc(copilot, warpUnauthorized);
    expect(
      scenarioProblems({ ...scenario("unauthorized"), menuBarProviders: shown }, unauthorized, shown, {
        list: await listHtml(unauthorized, "warp"),
        menuBar: "GitHub Copilot Warp",
      }),
    ).toEqual([]);
    const fine = doc(copilot, usage({ ...warpUnlimited }));
    const allFine = { ...scenario("all-fine"), selected: "copilot", menuBarProviders: ["copilot"] };
    expect(scenarioProblems(allFine, fine, shown, { list: await listHtml(fine, "copilot"), menuBar: "" })).toEqual([]);
    expect(
      scenarioProblems(allFine, doc(copilot, warp), shown, { list: await listHtml(doc(copilot, warp), "copilot"), menuBar: "" }),
    ).toEqual(["warp should be unlimited"]);
  });

  it("refuses a pace shot whose meter lasts, whose title shows another mode, or whose views leave a pace out", async () => {
    const withZai = ["copilot", "zai"];
    const menuBarHtml = (document: ReturnType<typeof doc>, mode: "percent" | "runsOut" = "percent") => {
      const model = menuBarModel(document, NOW, "auto", {}, { ...DEFAULT_TITLE, mode });
      return `<span class="status-title">${model.title}</span>${model.sections.flatMap((s) => s.items.map((i) => `${i.title} ${i.subtitle ?? ""}`)).join(" ")}`;
    };
    const runsOut = { ...scenario("title-runs-out-compact"), menuBarTitle: { mode: "runsOut" as const } };
    const lasting = doc(copilot, { ...zaiPaced, secondary: null });
    expect(scenarioProblems(runsOut, lasting, withZai, { list: "", menuBar: menuBarHtml(lasting, "runsOut") })).toEqual([
      "zai should have a meter that runs out before its reset, but none does",
    ]);
    const paced = doc(copilot, zaiPaced);
    expect(scenarioProblems(runsOut, paced, withZai, { list: "", menuBar: menuBarHtml(paced, "runsOut") })).toEqual([]);
    expect(scenarioProblems(runsOut, paced, withZai, { list: "", menuBar: menuBarHtml(paced) })).toEqual([
      "the menu-bar title is not drawn (runs out in 3d 7h)",
    ]);
    expect(
      scenarioProblems({ ...scenario("title-pace"), selected: "copilot", menuBarProviders: ["copilot"] }, doc(copilot), ["copilot"], {
        list: "",
        menuBar: menuBarHtml(doc(copilot)),
      }),
    ).toEqual(["the menu-bar title shows percent, not pace"]);
    expect(scenarioProblems(runsOut, paced, withZai, { list: "", menuBar: '<span class="status-title">runs out in 3d 7h</span>' })).toEqual(
      ["the menu bar does not show zai Tokens's pace", "the menu bar does not show zai Weekly tokens's pace"],
    );
  });

  it("refuses a runs-out shot whose pace does not come from the kept readings, or whose list has no chart", async () => {
    const withZai = ["copilot", "zai"];
    const kept = scenario("runs-out");
    const burst = doc(copilot, { ...zaiPaced, primary: { ...zaiPaced.primary!, pace: { ...zaiPaced.secondary!.pace! } } });
    const menuBar = `<span class="status-title">runs out in 3d 7h</span> 11% in reserve 10% ahead of pace`;
    expect(scenarioProblems(kept, burst, withZai, { list: await listHtml(burst, "zai"), menuBar })).toEqual([
      "zai Tokens's pace does not come from the kept readings (window)",
      "the list's detail pane does not chart zai Tokens",
    ]);
  });

  it("refuses a shot whose reset lies beyond its window or before the shot, or that shows a raw ISO time", () => {
    const at = "2026-11-20T10:00:00.000Z";
    const fiveHours = { ...copilot.primary!, label: "5-hour", windowMinutes: 300 };
    const document = (resetsAt: string) => ({ ...doc(usage({ ...copilot, primary: { ...fiveHours, resetsAt } })), generatedAt: at });
    expect(timeProblems(document("2026-11-20T13:00:00.000Z"), { list: "resets in 3h", menuBar: "" })).toEqual([]);
    expect(timeProblems(document("2026-11-24T06:00:00.000Z"), { list: "", menuBar: "" })).toEqual([
      "copilot 5-hour resets in 5520 minutes, beyond its 300-minute window",
    ]);
    expect(timeProblems(document("2026-11-20T09:00:00.000Z"), { list: "", menuBar: "" })[0]).toMatch(/before the screenshot's/);
    expect(timeProblems(document("2026-11-20T13:00:00.000Z"), { list: "Until: 2026-12-18T09:03:00Z", menuBar: "" })).toEqual([
      "the list shows a raw time (2026-12-18T09:03…)",
    ]);
  });

  it("checks the menu for the providers it shows, and the list for all of them", async () => {
    const unauthorized = doc(copilot, warpUnauthorized);
    const list = await listHtml(unauthorized, "warp");
    const menuOf = (ids: string[]) => ({ ...scenario("unauthorized"), menuBarProviders: ids });
    expect(menuBarDocument(menuOf(["copilot"]), unauthorized).providers.map((p) => p.id)).toEqual(["copilot"]);
    const listOnly = { ...menuOf(["copilot"]), views: ["list"] as const };
    expect(scenarioProblems(listOnly, unauthorized, shown, { list, menuBar: "GitHub Copilot" })).toEqual([]);
    expect(scenarioProblems(menuOf(["copilot"]), unauthorized, shown, { list, menuBar: "GitHub Copilot" })).toEqual([
      "the menu leaves out warp",
    ]);
    expect(scenarioProblems(menuOf(["copilot", "warp"]), unauthorized, shown, { list, menuBar: "GitHub Copilot" })).toEqual([
      "warp's error is not in the views",
    ]);
    expect(scenarioProblems(menuOf(["copilot", "warp", "zai"]), unauthorized, shown, { list, menuBar: "GitHub Copilot Warp" })).toEqual([
      "the menu misses zai",
    ]);
    expect(scenarioProblems(listOnly, unauthorized, shown, { list: "", menuBar: "" })).toEqual([
      "warp's error is not in the views",
      "the list's detail pane does not show Warp",
    ]);
  });

  it("sets up by a key or cookie in Preferences only the providers shown that have no home of their own", () => {
    const sim = {
      env: () => ({ CURSOR_COOKIE: "WorkosCursorSessionToken=s", CLAUDE_COOKIE: "sessionKey=k", OPENROUTER_API_KEY: "sk-or-1" }),
      providers: [
        { id: "claude", scenarios: ["ok"], seedsHome: true },
        { id: "cursor", scenarios: ["ok"], seedsHome: false },
        { id: "openrouter", scenarios: ["ok"], seedsHome: false },
      ],
    };
    expect(preferencesFrom(sim, ["claude", "cursor", "openrouter"])).toEqual({
      statusChecks: true,
      cursorCookie: "WorkosCursorSessionToken=s",
      openrouterApiKey: "sk-or-1",
    });
    expect(preferencesFrom(sim, ["claude"])).toEqual({ statusChecks: true });
  });

  it("sends the Store exactly the screenshots the scenarios name, numbered", () => {
    expect(storeFiles()).toEqual([
      { from: "all-fine-list.png", to: "quotabar-1.png" },
      { from: "all-fine-menu-bar.png", to: "quotabar-2.png" },
      { from: "near-limit-menu-bar.png", to: "quotabar-3.png" },
      { from: "stale-list.png", to: "quotabar-4.png" },
      { from: "unauthorized-list.png", to: "quotabar-5.png" },
      { from: "incident-menu-bar.png", to: "quotabar-6.png" },
    ]);
  });
});

describe("preview: the simulator keeps answering whatever the preview is busy with", () => {
  let sim: SimulatorProcess;
  let home: string;
  beforeAll(async () => {
    oneConnectionPerRequest();
    sim = await SimulatorProcess.start();
    home = mkdtempSync(join(tmpdir(), "quotabar-preview-test-"));
  }, 60_000);
  afterAll(async () => {
    await sim?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it("runs in a process of its own", () => {
    expect(sim.pid).not.toBe(process.pid);
    expect(sim.providers.map((p) => p.id)).toEqual(expect.arrayContaining(["copilot", "openrouter", "zai", "warp"]));
  });

  it("still answers Warp's POST after this process was blocked longer than a kept-alive connection lives (the old ECONNRESET)", async () => {
    const unauthorized = scenario("unauthorized");
    const first = await documentFor(sim, unauthorized, home, PREVIEW_NOW);
    expect(first.document.providers.find((p) => p.id === "warp")!.error?.code).toBe("unauthorized");
    // what the synchronous Chromium did: hold the event loop past the server's 5 s keep-alive timeout
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5_500);
    const second = await documentFor(sim, unauthorized, home, PREVIEW_NOW);
    const warpNow = second.document.providers.find((p) => p.id === "warp")!;
    expect(warpNow.error).toMatchObject({ code: "unauthorized" });
    expect(second.document.providers.filter((p) => p.id !== "warp").every((p) => p.ok)).toBe(true);
  }, 60_000);

  it("sets Claude Code, Codex and the Gemini CLI up from their files in the scenario's own home, Cursor from its cookie", async () => {
    const assistants: Scenario = { ...scenario("all-fine"), id: "assistants", providers: ["claude", "codex", "gemini", "cursor"] };
    const { document, listing } = await documentFor(sim, assistants, home, PREVIEW_NOW);
    expect(document.providers.map((p) => [p.id, p.ok, p.source, p.error?.message ?? null])).toEqual([
      ["claude", true, "oauth", null],
      ["codex", true, "oauth", null],
      ["gemini", true, "oauth", null],
      ["cursor", true, "web", null],
    ]);
    expect(existsSync(join(home, "assistants", ".claude", ".credentials.json"))).toBe(true);
    expect(listing.filter((l) => l.enabled).map((l) => l.id)).toEqual(expect.arrayContaining(["claude", "codex", "gemini", "cursor"]));
    // the new user's home stays empty: none of them is set up there
    const newUser = await documentFor(sim, scenario("new-user"), home, PREVIEW_NOW);
    expect(readdirSync(join(home, "new-user"))).toEqual([]);
    expect(newUser.listing.filter((l) => ["claude", "codex", "gemini", "cursor"].includes(l.id) && l.enabled)).toEqual([]);
  }, 60_000);

  it("takes screenshots without holding up this process's event loop", async () => {
    const dir = mkdtempSync(join(tmpdir(), "quotabar-fake-chromium-"));
    try {
      const browser = join(dir, "chromium");
      writeFileSync(
        browser,
        '#!/bin/sh\nfor a in "$@"; do case "$a" in --screenshot=*) out="${a#--screenshot=}";; esac; done\nsleep 1\nprintf png > "$out"\n',
      );
      chmodSync(browser, 0o755);
      writeFileSync(join(dir, "page.html"), "<p>hi</p>");
      let ticks = 0;
      const timer = setInterval(() => ticks++, 50);
      await screenshot(browser, join(dir, "page.html"), join(dir, "page.png"), { width: 10, height: 10, scale: 1 });
      clearInterval(timer);
      expect(readFileSync(join(dir, "page.png"), "utf8")).toBe("png");
      expect(ticks).toBeGreaterThanOrEqual(10);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("preview: output", () => {
  it("writes every scenario into its output folder and nothing into the extension", async () => {
    const before = trackedOutputs();
    const out = join(mkdtempSync(join(tmpdir(), "quotabar-preview-out-")), "preview-out");
    try {
      const { files } = await runPreview({ out, browser: null, log: () => undefined });
      const expected = SCENARIOS.flatMap((s) => [
        `${s.id}.json`,
        ...(viewsOf(s).includes("list") ? [`${s.id}-list.html`] : []),
        ...(viewsOf(s).includes("menuBar") ? [`${s.id}-menu-bar.html`] : []),
      ]);
      // a title mode is a menu-bar picture only
      expect(files).not.toContain("title-pace-list.html");
      expect(readFileSync(join(out, "runs-out-list.html"), "utf8")).toContain(
        '<img alt="Tokens since its window began" src="data:image/svg+xml;base64,',
      );
      expect(files).toEqual(expect.arrayContaining([...expected, "copilot-login.html", "index.html"]));
      expect(readdirSync(out).sort()).toEqual([...files].sort());
      expect(
        JSON.parse(readFileSync(join(out, "unauthorized.json"), "utf8")).providers.find((p: { id: string }) => p.id === "warp").error.code,
      ).toBe("unauthorized");
      expect(trackedOutputs()).toEqual(before);
    } finally {
      rmSync(resolve(out, ".."), { recursive: true, force: true });
    }
  }, 120_000);

  it("updates the Store files only when asked, from the checked output", () => {
    const dir = mkdtempSync(join(tmpdir(), "quotabar-store-"));
    try {
      const out = join(dir, "out");
      const ext = join(dir, "raycast");
      for (const folder of [out, join(ext, "metadata"), join(ext, "assets")]) mkdirSync(folder, { recursive: true });
      writeFileSync(join(ext, "metadata", "quotabar-9.png"), "old");
      for (const { from } of storeFiles()) writeFileSync(join(out, from), from);
      expect(() => copyToStore(out, ext)).toThrow(/did not write icon\.png, icon@dark\.png; nothing was copied/);
      expect(readdirSync(join(ext, "metadata"))).toEqual(["quotabar-9.png"]);
      for (const icon of ["icon.png", "icon@dark.png"]) writeFileSync(join(out, icon), icon);
      copyToStore(out, ext);
      expect(readdirSync(join(ext, "metadata")).sort()).toEqual(storeFiles().map((f) => f.to));
      expect(readFileSync(join(ext, "metadata", "quotabar-5.png"), "utf8")).toBe("unauthorized-list.png");
      expect(readFileSync(join(ext, "assets", "icon@dark.png"), "utf8")).toBe("icon@dark.png");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!chromium)("preview: Chromium's pictures", () => {
  it("are the same pixels every time, even when several are taken at once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "quotabar-same-pixels-"));
    try {
      const html = join(dir, "list.html");
      writeFileSync(html, listPage("same pixels", await listHtml(doc(copilot, warpUnauthorized, zaiStale), "warp")));
      // three at once: enough to catch pictures that differ when Chromiums share the machine
      const shots = Array.from({ length: 3 }, (_, i) => join(dir, `shot-${i}.png`));
      await Promise.all(shots.map((png) => screenshot(chromium!, html, png, { width: 1000, height: 625, scale: 2 })));
      const hashes = new Set(shots.map((png) => createHash("sha256").update(readFileSync(png)).digest("hex")));
      expect(hashes.size).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.skipIf(!chromium)("preview: the list's rows as Raycast lays them out", () => {
  it("shortens a long subtitle before the provider's name", async () => {
    const rejected = { ...warpUnauthorized.error!, message: "Warp API error (200): Unauthorized, the key was rejected" };
    const document = doc(copilot, { ...warpUnauthorized, error: rejected }, zaiStale);
    // cut: the box is narrower than the text laid out on its own (sub-pixel too: that is enough for an ellipsis)
    const measure = `<script>
      window.addEventListener("load", () => {
        const natural = (el) => {
          const probe = el.cloneNode(true);
          probe.style.cssText = "position: absolute; visibility: hidden; width: auto; max-width: none; flex: none; white-space: nowrap";
          el.parentElement.appendChild(probe);
          const width = probe.getBoundingClientRect().width;
          probe.remove();
          return width;
        };
        const cut = (el) => (el ? natural(el) - el.getBoundingClientRect().width > 0.01 : false);
        const rows = [...document.querySelectorAll(".row")].map((row) => ({
          title: row.querySelector(".row-title").textContent,
          titleCut: cut(row.querySelector(".row-title")),
          subtitleCut: cut(row.querySelector(".row-subtitle")),
        }));
        document.body.setAttribute("data-rows", JSON.stringify(rows));
      });
    </script>`;
    const dir = mkdtempSync(join(tmpdir(), "quotabar-rows-"));
    try {
      const html = join(dir, "list.html");
      writeFileSync(html, listPage("rows", await listHtml(document, "warp")).replace("</body>", `${measure}</body>`));
      const dom = execFileSync(
        chromium!,
        [...CHROMIUM_FLAGS, `--user-data-dir=${join(dir, "profile")}`, "--window-size=1000,625", "--dump-dom", `file://${html}`],
        { encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "ignore"] },
      );
      const rows = JSON.parse(/data-rows="([^"]*)"/.exec(dom)![1]!.replace(/&quot;/g, '"')) as {
        title: string;
        titleCut: boolean;
        subtitleCut: boolean;
      }[];
      const warpRow = rows.find((r) => r.title === "Warp")!;
      expect(warpRow).toEqual({ title: "Warp", titleCut: false, subtitleCut: true });
      expect(rows.filter((r) => r.titleCut)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
