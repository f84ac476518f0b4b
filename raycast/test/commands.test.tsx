import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ReactTestInstance } from "react-test-renderer";
import {
  Cache,
  environment,
  LaunchType,
  LocalStorage,
  preferenceValues,
  raycastCalls,
  resetRaycastDouble,
} from "../doubles/raycast-api/api.js";
import { QuotabarError } from "../../domain/errors.js";
import type { DeviceFlow } from "../../ports/device-flow.js";
import { ProviderSimulator } from "../../simulator/server.js";
import MenuBarCommand from "../../menubar-raycast/menu-bar-command.js";
import { keepEarlierReadings } from "../preview/documents.js";
import { documentCache } from "../shared/raycast-runtime.js";
import CopilotLogin from "../src/copilot-login.js";
import { signInTexts } from "../src/sign-in-command.js";
import { SignInView } from "../src/sign-in-view.js";
import { listModel } from "../src/list-model.js";
import ShowUsage from "../src/show-usage.js";
import { UsageList } from "../src/usage-list.js";
import { PROVIDER_IDS } from "../../providers/registry.js";
import { canRead, comingSoonProviders } from "../shared/coming-soon.js";
import { copilot, doc, listing, NOW } from "./documents.js";
import { byType, oneOfType, press, render, waitFor } from "./render.js";

let sim: ProviderSimulator;
let home: string;
const saved = { HOME: process.env.HOME, QUOTABAR_ORIGIN_MAP: process.env.QUOTABAR_ORIGIN_MAP };

beforeAll(async () => {
  sim = await ProviderSimulator.start();
  home = mkdtempSync(join(tmpdir(), "quotabar-raycast-cmd-"));
  process.env.HOME = home;
  process.env.QUOTABAR_ORIGIN_MAP = sim.env().QUOTABAR_ORIGIN_MAP;
});
afterAll(async () => {
  await sim.stop();
  rmSync(home, { recursive: true, force: true });
  Object.assign(process.env, saved);
});
beforeEach(() => {
  resetRaycastDouble();
  sim.requests.length = 0;
  for (const p of sim.providers) sim.setScenario(p.id, p.scenarios[0]!);
  const env = sim.env();
  Object.assign(preferenceValues, {
    openrouterApiKey: env.OPENROUTER_API_KEY,
    warpApiKey: env.WARP_API_KEY,
    zaiApiKey: env.Z_AI_API_KEY,
    statusChecks: true,
  });
});

const titles = (nodes: ReactTestInstance[]) => nodes.map((n) => n.props.title as string);

describe("menu-bar command", () => {
  it("fetches on a background launch, shows the most used meter, and stops loading so Raycast can unload it", async () => {
    environment.launchType = LaunchType.Background;
    const view = await render(<MenuBarCommand />);
    const extra = () => oneOfType(view.root, "MenuBarExtra");
    expect(extra().props.isLoading).toBe(true);
    await waitFor(() => extra().props.isLoading === false);
    expect(extra().props.title).toBe("81%");
    // and its pace, when its window is under way (the simulator plays its fixtures' dates as recorded)
    expect(extra().props.tooltip).toMatch(/^Warp · Credits 81% used( · (\d+% ahead of pace|\d+% in reserve|on pace) · .+)?$/);
    expect(extra().props.icon).toMatch(/^data:image\/svg\+xml,/);
    const sections = byType(view.root, "MenuBarExtra.Section");
    expect(titles(sections)).toEqual(["OpenRouter", "z.ai — Pro", "Warp", undefined]);
    const warpItems = titles(byType(sections[2]!, "MenuBarExtra.Item"));
    expect(warpItems[0]).toBe("Credits: 81%");
    expect(byType(sections[2]!, "MenuBarExtra.Item")[0]!.props.subtitle).toMatch(/^1,215 \/ 1,500 credits · resets in /);
    expect(titles(byType(sections[3]!, "MenuBarExtra.Item"))).toEqual(["Refresh", "Show Usage", "Configure…"]);
    expect(documentCache.read()?.providers).toHaveLength(3);
  });

  it("renders the cached document at once on a user launch and does not fetch while it is fresh", async () => {
    documentCache.write({ ...doc(copilot), generatedAt: new Date().toISOString() });
    const view = await render(<MenuBarCommand />);
    const extra = oneOfType(view.root, "MenuBarExtra");
    expect(extra.props).toMatchObject({ title: "38%", isLoading: false });
    expect(sim.requests).toHaveLength(0);
  });

  it("opens the dashboard, refreshes, and opens preferences from its items", async () => {
    documentCache.write({ ...doc(copilot), generatedAt: new Date().toISOString() });
    const view = await render(<MenuBarCommand />);
    const item = (title: string) => byType(view.root, "MenuBarExtra.Item").find((n) => n.props.title === title)!;
    await press(item("Premium: 38%"));
    await press(item("Configure…"));
    expect(raycastCalls.map((c) => [c.name, ...c.args])).toEqual([
      ["open", "https://github.com/settings/copilot"],
      ["openExtensionPreferences"],
    ]);
    await press(item("Refresh"));
    await waitFor(() => oneOfType(view.root, "MenuBarExtra").props.isLoading === false);
    expect(oneOfType(view.root, "MenuBarExtra").props.title).toBe("81%");
    expect(sim.requests.length).toBeGreaterThan(0);
  });

  it("only redraws from the cache when the list woke it after a refresh", async () => {
    documentCache.write({ ...doc(copilot), generatedAt: new Date().toISOString() });
    environment.launchType = LaunchType.Background;
    const view = await render(<MenuBarCommand launchContext={{ fetch: false }} />);
    expect(oneOfType(view.root, "MenuBarExtra").props).toMatchObject({ title: "38%", isLoading: false });
    expect(sim.requests).toHaveLength(0);
  });

  it("follows the provider picked in its preference", async () => {
    preferenceValues.menuBarProvider = "zai";
    environment.launchType = LaunchType.Background;
    const view = await render(<MenuBarCommand />);
    await waitFor(() => oneOfType(view.root, "MenuBarExtra").props.isLoading === false);
    expect(oneOfType(view.root, "MenuBarExtra").props.title).toBe("31%");
  });

  it("invites a new user to add a key", async () => {
    for (const key of Object.keys(preferenceValues)) delete preferenceValues[key];
    environment.launchType = LaunchType.Background;
    const view = await render(<MenuBarCommand />);
    await waitFor(() => oneOfType(view.root, "MenuBarExtra").props.isLoading === false);
    expect(titles(byType(view.root, "MenuBarExtra.Section"))[0]).toBe("No provider set up");
    expect(titles(byType(view.root, "MenuBarExtra.Item")).slice(0, 2)).toEqual([
      "Add an API Key in Preferences…",
      "Sign in to GitHub Copilot…",
    ]);
  });
});

describe("pace and events, with the demo's dates (every window under way now, as the preview plays them)", () => {
  let live: ProviderSimulator;
  beforeAll(async () => {
    live = await ProviderSimulator.start({ liveDates: true });
  });
  afterAll(async () => {
    await live?.stop();
    process.env.QUOTABAR_ORIGIN_MAP = sim.env().QUOTABAR_ORIGIN_MAP;
  });
  beforeEach(() => {
    process.env.QUOTABAR_ORIGIN_MAP = live.env().QUOTABAR_ORIGIN_MAP;
    live.requests.length = 0;
  });

  it("shows the title its preferences ask for: the percent and the pace of the meter most at risk", async () => {
    preferenceValues.menuBarTitle = "both";
    environment.launchType = LaunchType.Background;
    const view = await render(<MenuBarCommand />);
    await waitFor(() => oneOfType(view.root, "MenuBarExtra").props.isLoading === false);
    // z.ai's weekly window: 31% used with a fifth of it gone, so it runs out before its reset
    expect(oneOfType(view.root, "MenuBarExtra").props.title).toMatch(/^31% · \+1\d%$/);
    const zai = byType(view.root, "MenuBarExtra.Section").find((s) => s.props.title === "z.ai — Pro")!;
    expect(titles(byType(zai, "MenuBarExtra.Item"))).toEqual([
      "Tokens: 29%",
      expect.stringMatching(/^\d+% in reserve$/),
      "Weekly tokens: 31%",
      expect.stringMatching(/^1\d% ahead of pace$/),
      "Open z.ai Dashboard",
    ]);
  });

  const toasts = () => raycastCalls.filter((c) => c.name === "showToast").map((c) => c.args[0]);
  const backgroundRun = async () => {
    // an old document: the background launch fetches
    const cached = documentCache.read();
    if (cached) documentCache.write({ ...cached, generatedAt: new Date(Date.now() - 3_600_000).toISOString() });
    environment.launchType = LaunchType.Background;
    const view = await render(<MenuBarCommand />);
    await waitFor(() => oneOfType(view.root, "MenuBarExtra").props.isLoading === false);
    view.unmount();
  };

  it("tells what a fetch raises in one toast, the most urgent first, and never twice in the same window", async () => {
    await backgroundRun();
    expect(toasts()).toEqual([
      {
        style: "FAILURE",
        title: expect.stringMatching(/^z\.ai · Weekly tokens runs out in \d+d \d+h · \d more$/),
        message: expect.stringMatching(/^At this pace it is used up \d+d \d+h before the reset\. · .*Warp · Credits at 81%/),
      },
    ]);
    await backgroundRun();
    expect(live.requests.filter((r) => r.providerId === "zai")).toHaveLength(2);
    expect(toasts()).toHaveLength(1);
  });

  it("tells nothing, and counts nothing as told, while Notifications is off", async () => {
    preferenceValues.menuBarNotify = false;
    await backgroundRun();
    expect(toasts()).toEqual([]);
    preferenceValues.menuBarNotify = true;
    await backgroundRun();
    expect(toasts()).toHaveLength(1);
  });
  it("charts a meter in the list once readings of its window are kept", async () => {
    const view = await render(<ShowUsage />);
    await waitFor(() => oneOfType(view.root, "List").props.isLoading === false);
    const detail = () =>
      oneOfType(
        byType(view.root, "List.Item").find((n) => n.props.title === "z.ai")!,
        "List.Item.Detail",
      ).props.markdown as string;
    // one reading so far: the bar, no chart
    expect(detail()).toContain("### Tokens · 29% used\n\n`");
    const zai = documentCache.read()!.providers.find((p) => p.id === "zai")!;
    const readings = [
      { minutesAgo: 50, usedPercent: 9 },
      { minutesAgo: 25, usedPercent: 18 },
    ];
    await keepEarlierReadings(
      new Cache({ namespace: "quotabar" }),
      live.env().QUOTABAR_ORIGIN_MAP!,
      { zaiApiKey: live.env().Z_AI_API_KEY },
      zai,
      { provider: "zai", meter: "primary", readings },
      new Date(),
    );
    await press(byType(view.root, "Action").find((n) => n.props.title === "Refresh")!);
    await waitFor(() => detail().includes("data:image/svg+xml;base64,"));
    expect(detail()).toMatch(
      /### Tokens · 29% used\n\n!\[Tokens since its window began\]\(data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+\)\n\n_Dashed: on pace/,
    );
  });
});

describe("list command", () => {
  it("shows enabled providers first with plan, accessories, detail and actions", async () => {
    const view = await render(<ShowUsage />);
    await waitFor(() => oneOfType(view.root, "List").props.isLoading === false);
    expect(oneOfType(view.root, "List").props).toMatchObject({ isShowingDetail: true, searchBarPlaceholder: "Search providers and plans" });
    const [enabled, notSetUp] = byType(view.root, "List.Section");
    expect(titles(byType(enabled!, "List.Item"))).toEqual(["OpenRouter", "z.ai", "Warp"]);
    // every provider this version reads; the ones still to come are not offered (see "Coming Soon" below)
    expect(byType(notSetUp!, "List.Item")).toHaveLength(PROVIDER_IDS.filter(canRead).length - 3);
    expect(titles(byType(view.root, "List.Section"))).toEqual(["Enabled", "Not Set Up"]);
    const zai = byType(enabled!, "List.Item")[1]!;
    expect(zai.props.subtitle).toBe("Pro");
    expect(zai.props.keywords).toEqual(["zai", "Pro", "api"]);
    expect(zai.props.accessories.at(-1)).toEqual({ text: { value: "29%", color: "raycast-green" }, tooltip: "Tokens used" });
    expect(oneOfType(zai, "List.Item.Detail").props.markdown).toContain("### Tokens · 29% used");
    const labels = byType(zai, "Metadata.Label").map((n) => n.props.title);
    expect(labels).toEqual(expect.arrayContaining(["Plan", "Source", "Fetched"]));
    const actionTitles = zai.findAll((n) => /^Action(\.|$)/.test(String(n.type)));
    expect(titles(actionTitles)).toEqual(["Open Dashboard", "Copy JSON", "Copy CLI Command", "Refresh", "Configure"]);
    expect(actionTitles.find((n) => n.props.title === "Copy CLI Command")!.props.content).toBe("quotabar -p zai");
    expect(JSON.parse(actionTitles.find((n) => n.props.title === "Copy JSON")!.props.content).id).toBe("zai");
  });

  it("lists the providers still to come apart, under Coming Soon, when its preference is on, with nothing to set up", async () => {
    preferenceValues.showComingSoon = true;
    const view = await render(<ShowUsage />);
    await waitFor(() => oneOfType(view.root, "List").props.isLoading === false);
    const soon = comingSoonProviders();
    const sections = byType(view.root, "List.Section");
    expect(titles(sections)).toEqual(["Enabled", "Not Set Up", ...(soon.length > 0 ? ["Coming Soon"] : [])]);
    const notSetUp = titles(byType(sections[1]!, "List.Item"));
    for (const { name } of soon) expect(notSetUp).not.toContain(name);
    if (soon.length > 0) expect(titles(byType(sections[2]!, "List.Item"))).toEqual(soon.map((p) => p.name));
  });

  it("draws the Coming Soon section only when it has rows, each with nothing to set up, refresh or copy", async () => {
    const stillToCome = listing().map((l) => (l.id === "augment" || l.id === "factory" ? { ...l, supported: false } : l));
    const hidden = await render(<UsageList model={listModel(doc(copilot), stillToCome, NOW)} isLoading={false} onRefresh={() => {}} />);
    expect(titles(byType(hidden.root, "List.Section"))).toEqual(["Enabled", "Not Set Up"]);
    const model = listModel(doc(copilot), stillToCome, NOW, { showComingSoon: true });
    const view = await render(<UsageList model={model} isLoading={false} onRefresh={() => {}} />);
    const sections = byType(view.root, "List.Section");
    expect(titles(sections)).toEqual(["Enabled", "Not Set Up", "Coming Soon"]);
    expect(sections[2]!.props.subtitle).toBe("Not read by this version yet");
    const rows = byType(sections[2]!, "List.Item");
    expect(titles(rows)).toEqual(["Augment", "Factory (Droid)"]);
    for (const row of rows) {
      expect(row.props.subtitle).toBe("Coming soon");
      const actions = titles(row.findAll((n) => /^Action(\.|$)/.test(String(n.type))));
      expect(actions.filter((t) => !["Open Dashboard", "Open Status Page"].includes(t))).toEqual([]);
      expect(oneOfType(row, "List.Item.Detail").props.markdown).toContain("cannot read");
    }
    expect(titles(byType(sections[1]!, "List.Item"))).not.toContain("Augment");
  });

  it("refreshes, keeps a failing provider's last data as stale, and asks the menu bar to redraw", async () => {
    const view = await render(<ShowUsage />);
    await waitFor(() => oneOfType(view.root, "List").props.isLoading === false);
    sim.setScenario("warp", "unauthorized");
    const refresh = byType(view.root, "Action").find((n) => n.props.title === "Refresh")!;
    await press(refresh);
    await waitFor(() => raycastCalls.some((c) => c.name === "launchCommand"));
    const warp = byType(view.root, "List.Item").find((n) => n.props.title === "Warp")!;
    // the last good snapshot (from the first fetch) is kept, marked stale, with the error in the detail
    expect(warp.props.accessories[0]).toMatchObject({ tag: { value: "Stale", color: "raycast-orange" } });
    expect(oneOfType(warp, "List.Item.Detail").props.markdown).toMatch(/Warp refused the API key \(Unauthorized\)/);
    expect(raycastCalls.find((c) => c.name === "launchCommand")!.args[0]).toEqual({
      name: "menu-bar",
      type: "background",
      context: { fetch: false },
    });
  });

  it("shows an empty view that tells a new user how to add a key", async () => {
    for (const key of Object.keys(preferenceValues)) delete preferenceValues[key];
    const view = await render(<ShowUsage />);
    await waitFor(() => oneOfType(view.root, "List").props.isLoading === false);
    const empty = oneOfType(view.root, "List.EmptyView");
    expect(empty.props.title).toBe("Add an API Key to Get Started");
    expect(empty.props.description).toContain("Preferences");
    expect(titles(byType(empty, "Action"))).toEqual(["Open Preferences", "Sign in to GitHub Copilot", "Refresh"]);
    expect(byType(view.root, "List.Item")).toHaveLength(0);
  });
});

describe("Copilot login command", () => {
  it("signs in through the simulator's device flow, saves the token in LocalStorage, and the menu bar then shows Copilot", async () => {
    sim.setScenario("copilot", "device_ok");
    const view = await render(<CopilotLogin />);
    await waitFor(() => oneOfType(view.root, "Detail").props.markdown.includes("WDJB-MJHT"));
    expect(oneOfType(view.root, "Detail").props.markdown).toMatch(/^# Sign in to GitHub Copilot\n/);
    await waitFor(() => oneOfType(view.root, "Detail").props.markdown.includes("Signed In"), 15_000);
    expect(oneOfType(view.root, "Detail").props.markdown).toContain("Raycast LocalStorage");
    const stored = JSON.parse((await LocalStorage.getItem<string>("config.json"))!);
    expect(stored.providers).toEqual([{ id: "copilot", apiKey: expect.stringMatching(/^gho_/), enabled: true }]);
    expect(raycastCalls.find((c) => c.name === "launchCommand")!.args[0]).toEqual({
      name: "menu-bar",
      type: "background",
      context: { fetch: true },
    });

    sim.setScenario("copilot", "ok");
    environment.launchType = LaunchType.Background;
    const menu = await render(<MenuBarCommand />);
    await waitFor(() => oneOfType(menu.root, "MenuBarExtra").props.isLoading === false);
    expect(titles(byType(menu.root, "MenuBarExtra.Section"))[0]).toMatch(/^GitHub Copilot/);
  });
});

describe("sign-in view", () => {
  const texts = signInTexts("copilot");

  const code = {
    deviceCode: "secret-device-code",
    userCode: "ABCD-1234",
    verificationUri: "https://github.com/login/device",
    expiresAt: new Date(NOW.getTime() + 900_000),
    intervalSeconds: 5,
  };

  function fakeFlow(outcomes: (() => Promise<string>)[]): DeviceFlow & { starts: number } {
    const flow = {
      starts: 0,
      start: async () => {
        flow.starts++;
        return code;
      },
      poll: () => (outcomes.shift() ?? (() => new Promise<string>(() => undefined)))(),
    };
    return flow;
  }

  it("shows the code with copy and open actions, then ends signed in with the token saved", async () => {
    let release!: (token: string) => void;
    const flow = fakeFlow([() => new Promise<string>((resolve) => (release = resolve))]);
    const saved: string[] = [];
    const view = await render(<SignInView flow={flow} texts={texts} save={async (t) => (saved.push(t), "Raycast LocalStorage")} />);
    await waitFor(() => oneOfType(view.root, "Detail").props.markdown.includes("ABCD-1234"));
    const detail = oneOfType(view.root, "Detail");
    expect(detail.props.markdown).toContain("https://github.com/login/device");
    expect(detail.props.markdown).not.toContain("secret-device-code");
    expect(titles(byType(view.root, "Action"))).toEqual(["Copy Code and Open Verification Page"]);
    expect(byType(view.root, "Action.CopyToClipboard")[0]!.props.content).toBe("ABCD-1234");
    expect(byType(view.root, "Action.OpenInBrowser")[0]!.props.url).toBe("https://github.com/login/device");
    await press(byType(view.root, "Action")[0]!);
    expect(raycastCalls.slice(0, 2).map((c) => [c.name, ...c.args])).toEqual([
      ["Clipboard.copy", "ABCD-1234"],
      ["open", "https://github.com/login/device"],
    ]);
    release("gho_signed_in");
    await waitFor(() => oneOfType(view.root, "Detail").props.markdown.includes("Signed In"));
    expect(saved).toEqual(["gho_signed_in"]);
    expect(oneOfType(view.root, "Detail").props.markdown).toContain("Raycast LocalStorage");
    expect(oneOfType(view.root, "Detail").props.isLoading).toBe(false);
  });

  it("ends expired with a restart that asks for a new code", async () => {
    const flow = fakeFlow([() => Promise.reject(new QuotabarError("expired", "The device code expired"))]);
    const view = await render(<SignInView flow={flow} texts={texts} save={async () => "nowhere"} />);
    await waitFor(() => oneOfType(view.root, "Detail").props.markdown.includes("Code Expired"));
    const restart = byType(view.root, "Action").find((n) => n.props.title === "Restart Sign-In")!;
    await press(restart);
    await waitFor(() => oneOfType(view.root, "Detail").props.markdown.includes("ABCD-1234"));
    expect(flow.starts).toBe(2);
  });

  it("says access was denied when the user declines", async () => {
    const flow = fakeFlow([() => Promise.reject(new QuotabarError("unauthorized", "access_denied"))]);
    const view = await render(<SignInView flow={flow} texts={texts} save={async () => "nowhere"} />);
    await waitFor(() => oneOfType(view.root, "Detail").props.markdown.includes("Access Denied"));
    // the other way in, named after the registry's key setting
    expect(oneOfType(view.root, "Detail").props.markdown).toContain("Add your GitHub Copilot Token in the extension preferences.");
  });
});
