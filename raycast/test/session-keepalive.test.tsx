import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Cache, environment, LaunchType, preferenceValues, raycastCalls, resetRaycastDouble } from "../doubles/raycast-api/api.js";
import MenuBarCommand from "../../menubar-raycast/menu-bar-command.js";
import { AUGMENT_TEST_COOKIE } from "../../providers/augment/simulator.js";
import { ProviderSimulator } from "../../simulator/server.js";
import ShowUsage from "../src/show-usage.js";
import { byType, oneOfType, press, render, waitFor } from "./render.js";

/** Augment's session keepalive in Raycast: one check per background run of the menu bar, and "Refresh Session" by hand. */
let sim: ProviderSimulator;
let home: string;
const saved = { HOME: process.env.HOME, QUOTABAR_ORIGIN_MAP: process.env.QUOTABAR_ORIGIN_MAP, PATH: process.env.PATH };

beforeAll(async () => {
  sim = await ProviderSimulator.start();
  home = mkdtempSync(join(tmpdir(), "quotabar-raycast-keepalive-"));
  process.env.HOME = home;
  process.env.QUOTABAR_ORIGIN_MAP = sim.env().QUOTABAR_ORIGIN_MAP;
  process.env.PATH = "/usr/bin:/bin"; // no auggie: Augment is read from the (simulated) web app
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
  // no toast for Warp's crossed threshold here: the toasts these tests look at are the keepalive's
  Object.assign(preferenceValues, {
    augmentCookie: AUGMENT_TEST_COOKIE,
    warpApiKey: sim.env().WARP_API_KEY,
    statusChecks: false,
    menuBarNotify: false,
  });
});

const pings = () => sim.requests.filter((r) => r.providerId === "augment" && r.path === "/api/auth/session");
const items = (root: Parameters<typeof byType>[0]) => byType(root, "MenuBarExtra.Item");
const item = (root: Parameters<typeof byType>[0], title: string) => items(root).find((n) => n.props.title === title);

async function backgroundRun() {
  environment.launchType = LaunchType.Background;
  const view = await render(<MenuBarCommand />);
  await waitFor(() => oneOfType(view.root, "MenuBarExtra").props.isLoading === false);
  return view;
}

describe("the menu bar keeps web sessions alive", () => {
  it("checks once in each background run (renewing a session never renewed), and not when the user opens the menu", async () => {
    const view = await backgroundRun();
    expect(pings()).toHaveLength(1);
    const augment = byType(view.root, "MenuBarExtra.Section").find((s) => s.props.title === "Augment — Developer")!;
    expect(item(augment, "Refresh Session")?.props.onAction).toBeTypeOf("function");
    expect(
      byType(view.root, "MenuBarExtra.Section")
        .find((s) => s.props.title === "Warp")!
        .findAll((n) => n.props.title === "Refresh Session"),
    ).toEqual([]);
    await backgroundRun(); // 5 minutes later in Raycast's life; here at once, so nothing is due
    expect(pings()).toHaveLength(1);
    environment.launchType = LaunchType.UserInitiated;
    sim.requests.length = 0;
    const opened = await render(<MenuBarCommand />);
    await waitFor(() => oneOfType(opened.root, "MenuBarExtra").props.isLoading === false);
    expect(sim.requests).toEqual([]);
  });

  it("renews the session from the menu's Refresh Session, says so, and has the menu bar fetch afresh", async () => {
    const view = await backgroundRun();
    await press(item(view.root, "Refresh Session")!);
    expect(pings()).toHaveLength(2);
    const calls = raycastCalls.map((c) => [c.name, c.args[0]]);
    expect(calls).toContainEqual(["showToast", { style: "SUCCESS", title: "Augment session renewed" }]);
    expect(calls).toContainEqual(["launchCommand", { name: "menu-bar", type: LaunchType.Background, context: { fetch: true } }]);
  });

  it("says when the keepalive gave up, with what to do, until a refresh works again", async () => {
    new Cache({ namespace: "quotabar" }).set(
      "keepalive/augment",
      JSON.stringify({ failures: 3, gaveUp: true, lastAttemptAt: null, lastSuccessAt: null }),
    );
    const view = await backgroundRun();
    expect(pings()).toHaveLength(0); // it gave up: no renewal until asked
    const alert = item(view.root, "Augment session expired: renewing it failed 3 times in a row. Please sign in again.");
    expect(alert?.props.tooltip).toContain("https://app.augmentcode.com");
    sim.setScenario("augment", "expired");
    await press(item(view.root, "Refresh Session")!);
    const failure = raycastCalls.find((c) => c.name === "showToast" && (c.args[0] as { style: string }).style === "FAILURE");
    expect(failure?.args[0]).toMatchObject({ title: "Augment session expired. Please log in again." });
  });
});

describe("the list's Refresh Session action", () => {
  it("is offered on the Augment row only, and renews the session", async () => {
    environment.launchType = LaunchType.UserInitiated;
    const view = await render(<ShowUsage />);
    await waitFor(() => oneOfType(view.root, "List").props.isLoading === false);
    const row = (id: string) => byType(view.root, "List.Item").find((n) => n.props.id === id)!;
    const action = (id: string) => byType(row(id), "Action").find((n) => n.props.title === "Refresh Session");
    expect(action("warp")).toBeUndefined();
    await press(action("augment")!);
    expect(pings()).toHaveLength(1);
    expect(raycastCalls.map((c) => [c.name, c.args[0]])).toContainEqual([
      "showToast",
      { style: "SUCCESS", title: "Augment session renewed" },
    ]);
  });
});
