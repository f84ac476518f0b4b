/**
 * `npm run screenshots:serve-page`: docs/serve-page-light.png and docs/serve-page-dark.png, the page
 * of `quotabar serve` as README shows it. The real page, served by serve's own code against the
 * demo simulator (times live, as `quotabar demo` plays them, one provider signed out to show an
 * error card), in headless Chromium (scripts/devtools-browser.ts). So that the sparklines have a line
 * to draw, each meter's window is given earlier readings that climb to its current one, written
 * into the history serve keeps as the refreshes before it would have.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveCacheDir } from "../adapters/config/config-path.js";
import { createNodeCore } from "../library/node-core.js";
import type { startServe as StartServe } from "../oclif-cli/serve/start-serve.js";
import { PROVIDER_IDS } from "../providers/registry.js";
import { ProviderSimulator } from "../simulator/server.js";
import { Browser } from "./devtools-browser.js";

const ROOT = join(import.meta.dirname, "..");
const SIGNED_OUT = { id: "kilo", scenario: "unauthorized" };
/** Above the fold of a laptop screen: the first two rows of cards, one of them the error. */
const SIZE = { width: 1280, height: 1000 };
const READINGS = 24;

const sim = await ProviderSimulator.start({ liveDates: true });
const home = mkdtempSync(join(tmpdir(), "quotabar-page-shots-"));
// serve as built (`npm run build`): the page's script exists only in dist/
const { startServe } = (await import(join(ROOT, "dist", "oclif-cli", "serve", "start-serve.js"))) as { startServe: typeof StartServe };
try {
  await sim.seedHome(home);
  sim.setScenario(SIGNED_OUT.id, SIGNED_OUT.scenario);
  const env = { ...sim.env(), HOME: home, PATH: process.env.PATH, QUOTABAR_SECRET_STORE: "memory" };
  const providers = sim.providers.map((p) => p.id).filter((id) => PROVIDER_IDS.includes(id));
  // a first reading of each provider, kept where serve keeps them; then the climb before it
  await createNodeCore({ env }).usage.usage({ providers });
  climb(join(resolveCacheDir(env), "history"), Date.now());

  const serving = await startServe({ env, host: "127.0.0.1", port: 0, intervalMs: 3_600_000, token: null, providers, log: () => {} });
  while (serving.state.providers().length < providers.length) await new Promise((resolve) => setTimeout(resolve, 100));
  const browser = await Browser.launch(process.env.CHROMIUM ?? "/usr/bin/chromium");
  try {
    for (const colorScheme of ["light", "dark"] as const) {
      const page = await browser.newPage({ ...SIZE, colorScheme });
      await page.goto(`${serving.url}/`);
      await page.waitFor(`document.querySelectorAll("#providers article").length === ${providers.length}`);
      const file = join(ROOT, "docs", `serve-page-${colorScheme}.png`);
      writeFileSync(file, await page.screenshot({ fullPage: false }));
      console.log(`wrote ${file}`);
    }
  } finally {
    await browser.close();
    await serving.stop();
  }
} finally {
  await sim.stop();
  rmSync(home, { recursive: true, force: true });
}

/**
 * Earlier readings in each meter's current window, rising to the one just kept: the stored history's
 * own shape (adapters/cache/stored-usage-history.ts: points of [epoch seconds, used percent, used,
 * limit] per window segment), over the window so far, or the last day for a meter without one.
 */
function climb(dir: string, nowMs: number): void {
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".json"))) {
    const history = JSON.parse(readFileSync(join(dir, file), "utf8"));
    if (history.v !== 1) throw new Error(`${file}: a history of version ${history.v}; this script writes version 1`);
    for (const meter of Object.values(history.meters) as {
      windowMinutes: number | null;
      segments: { resetsAt: string | null; points: (number | null)[][] }[];
    }[]) {
      const segment = meter.segments.at(-1);
      const last = segment?.points.at(-1);
      if (!segment || !last || typeof last[1] !== "number") continue;
      const [at, percent, used, limit] = last as [number, number, number | null, number | null];
      const windowStart =
        segment.resetsAt && meter.windowMinutes ? Date.parse(segment.resetsAt) / 1000 - meter.windowMinutes * 60 : at - 86_400;
      const from = Math.max(windowStart, at - 7 * 86_400, Math.floor(nowMs / 1000) - 30 * 86_400);
      segment.points = Array.from({ length: READINGS }, (_, i) => {
        const share = (i + 1) / READINGS;
        // uneven, as work is: bursts and pauses, never above where it is now
        const rise = Math.min(1, share + 0.05 * Math.sin(i * 1.7));
        const t = Math.round(from + (at - from) * share);
        return i === READINGS - 1
          ? [at, percent, used, limit]
          : [t, round(percent * rise), used === null ? null : round(used * rise), limit];
      });
    }
    writeFileSync(join(dir, file), JSON.stringify(history));
  }
}

function round(n: number): number {
  return Math.round(Math.max(0, n) * 100) / 100;
}
