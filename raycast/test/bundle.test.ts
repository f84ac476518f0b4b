import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_IDS } from "../../providers/registry.js";
import { ProviderSimulator } from "../../simulator/server.js";
import { canRead } from "../shared/coming-soon.js";

const extension = resolve(fileURLToPath(new URL("..", import.meta.url)));

/**
 * The commands as Raycast loads them: bundled the way `ray build` does (esbuild, CommonJS, node22,
 * Raycast's externals, the real @raycast/utils inside), then run in a plain Node process (Node 22
 * when the suite runs under it) with the @raycast/api double standing in for Raycast's runtime.
 * Catches what only the bundle can break: ESM-only dependencies in a CJS bundle, lazy imports
 * (provider simulators and sign-in flows) inside the bundle, module-level side effects.
 */
let dir: string;
let sim: ProviderSimulator;

beforeAll(async () => {
  sim = await ProviderSimulator.start();
  dir = mkdtempSync(join(tmpdir(), "quotabar-bundle-"));
  const external = ["@raycast/api", "react", "react-devtools-raycast", "@parcel/source-map"];
  await build({
    absWorkingDir: extension,
    entryPoints: ["src/menu-bar.tsx", "src/show-usage.tsx"],
    entryNames: "[name]",
    outdir: join(dir, "out"),
    platform: "node",
    target: "node22.22.2",
    jsxFactory: "_jsx",
    jsxFragment: "_jsxFragment",
    bundle: true,
    logLevel: "silent",
    external,
    loader: { ".wasm": "binary" },
  });
  const api = join(dir, "node_modules", "@raycast", "api");
  mkdirSync(api, { recursive: true });
  await build({
    entryPoints: [join(extension, "doubles", "raycast-api", "api.ts")],
    outfile: join(api, "index.js"),
    platform: "node",
    format: "cjs",
    bundle: true,
    logLevel: "silent",
    external: ["react"],
  });
  for (const name of ["react", "react-test-renderer", "scheduler", "react-is"]) {
    symlinkSync(join(extension, "node_modules", name), join(dir, "node_modules", name));
  }
  writeFileSync(join(dir, "run.cjs"), RUNNER);
});

afterAll(async () => {
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
});

const RUNNER = `
globalThis.IS_REACT_ACT_ENVIRONMENT = true;
const console_error = console.error;
console.error = (...a) => (String(a[0]).includes("react-test-renderer is deprecated") ? undefined : console_error(...a));
const api = require("@raycast/api");
const React = require("react");
const TR = require("react-test-renderer");
Object.assign(api.preferenceValues, JSON.parse(process.env.PREFS));
api.environment.launchType = process.env.LAUNCH;
const Command = require("./out/" + process.argv[2] + ".js").default;
const root = process.argv[2] === "menu-bar" ? "MenuBarExtra" : "List";
(async () => {
  let r;
  await TR.act(async () => { r = TR.create(React.createElement(Command, {})); });
  for (let i = 0; i < 500 && r.root.find((n) => n.type === root).props.isLoading; i++) {
    await TR.act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  }
  const top = r.root.find((n) => n.type === root).props;
  const out = {
    isLoading: top.isLoading,
    title: top.title,
    sections: r.root.findAll((n) => n.type === root + ".Section").map((s) => s.props.title ?? null),
    items: r.root.findAll((n) => n.type === root + ".Item").map((i) => i.props.title),
  };
  await TR.act(async () => r.unmount());
  process.stdout.write(JSON.stringify(out));
})().catch((error) => { console.error(error); process.exit(1); });
`;

/** Runs a command in a child process; asynchronously, since the simulator answers from this one. */
async function run(command: string): Promise<{ isLoading: boolean; title?: string; sections: (string | null)[]; items: string[] }> {
  const env = sim.env();
  const { stdout } = await promisify(execFile)(process.execPath, [join(dir, "run.cjs"), command], {
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      QUOTABAR_ORIGIN_MAP: env.QUOTABAR_ORIGIN_MAP,
      LAUNCH: "background",
      PREFS: JSON.stringify({
        openrouterApiKey: env.OPENROUTER_API_KEY,
        warpApiKey: env.WARP_API_KEY,
        copilotApiKey: env.COPILOT_API_TOKEN,
        statusChecks: true,
      }),
    },
  });
  return JSON.parse(stdout);
}

describe("the built commands", () => {
  it("menu bar: fetches through the bundled core and the real @raycast/utils, then stops loading", async () => {
    const result = await run("menu-bar");
    expect(result.isLoading).toBe(false);
    expect(result.title).toBe("81%");
    expect(result.sections).toEqual(["GitHub Copilot — Individual", "OpenRouter", "Warp", null]);
    expect(result.items).toContain("Premium: 57%");
  });

  it("list: shows the enabled providers first", async () => {
    const result = await run("show-usage");
    expect(result.isLoading).toBe(false);
    expect(result.sections).toEqual(["Enabled", "Not Set Up"]);
    expect(result.items.slice(0, 3)).toEqual(["GitHub Copilot", "OpenRouter", "Warp"]);
    // every provider this version reads; the ones still to come wait behind the Show Coming Soon preference
    expect(result.items).toHaveLength(PROVIDER_IDS.filter(canRead).length);
  });
});
