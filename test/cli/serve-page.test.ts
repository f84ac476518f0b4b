import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { UsageDocument } from "../../domain/usage-document.js";
import { formatPercent } from "../../presentation/format.js";
import { PROVIDER_IDS } from "../../providers/registry.js";
import { requireBinaries } from "../browser/real-browsers.js";
import { Browser, type Page } from "../../scripts/devtools-browser.js";
import { useSimulator } from "../helpers/harness.js";
import { httpGet } from "../helpers/http-get.js";

/**
 * `quotabar serve`'s page in a real browser: headless Chromium (driven over the DevTools protocol,
 * scripts/devtools-browser.ts) loads it from the built CLI serving the simulator, and the test reads
 * what a person would see. z.ai's plan name is hostile markup on every answer.
 */
const HOSTILE = `<img src=x onerror="window.__pwned=1">`;
const sim = useSimulator({
  liveDates: true,
  upstreams: (all) =>
    all.map((upstream) =>
      upstream.id !== "zai"
        ? upstream
        : {
            ...upstream,
            routes: upstream.routes.map((route) => ({
              ...route,
              handle: async (request, scenario) => {
                const reply = await route.handle(request, scenario);
                const body = JSON.parse(reply.body ?? "null") as { data?: Record<string, unknown> } | null;
                if (!body?.data || typeof body.data !== "object") return reply;
                body.data.planName = HOSTILE;
                return { ...reply, body: JSON.stringify(body) };
              },
            })),
          },
    ),
});
const tools = requireBinaries("chromium");
const BIN = join(import.meta.dirname, "..", "..", "bin", "run.cjs");
const TOKEN = "9c1e5a7b3d2f4e6a8b0c1d2e3f4a5b6c";
const started: ChildProcess[] = [];
let browser: Browser;

beforeAll(async () => {
  await sim.sim.seedHome(sim.home); // the local providers' files, as `quotabar demo` lays them out
  if (tools) browser = await Browser.launch(tools.chromium as string, { hostRules: "MAP quotabar.test 127.0.0.1" });
}, 60_000);

afterEach(async () => {
  await Promise.all(started.splice(0).map(stop));
});

afterAll(async () => {
  await browser?.close();
});

/** The built CLI's `quotabar serve` on a free loopback port, refreshed every 10 s (the shortest it allows): its URL. */
async function serve(extraEnv: Record<string, string> = {}): Promise<string> {
  const env = { PATH: process.env.PATH, ...sim.env(), ...extraEnv } as NodeJS.ProcessEnv;
  const providers = sim.sim.providers.map((p) => p.id).filter((id) => PROVIDER_IDS.includes(id));
  const child = spawn(process.execPath, [BIN, "serve", "--port", "0", "--interval", "10s", ...providers.flatMap((id) => ["-p", id])], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      stdout += d;
      const found = /on (http:\/\/127\.0\.0\.1:\d+):/.exec(stdout);
      if (found) resolve(found[1] as string);
    });
    child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  return exited;
}

/** The usage document once every served provider has been refreshed `times` times (by the count of /healthz). */
async function usageOnceRefreshed(url: string, headers: Record<string, string> = {}): Promise<UsageDocument> {
  for (;;) {
    const health = JSON.parse((await httpGet(`${url}/healthz`, headers)).body) as { providers: number; refreshed: number };
    if (health.refreshed === health.providers) return JSON.parse((await httpGet(`${url}/usage`, headers)).body) as UsageDocument;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface SeenMeter {
  label: string;
  percent: string | null;
  valueNow: string | null;
  named: string | null;
  quantity: string | null;
  reset: string | null;
  pace: string | null;
  sparkline: boolean;
}
interface SeenCard {
  title: string;
  plan: string | null;
  badges: string[];
  meters: SeenMeter[];
  error: string | null;
  hint: string | null;
  visible: boolean;
}

/** Every card as the page shows it: the text a person reads, the meters as a screen reader names them. */
const cardsOf = (page: Page) =>
  page.evaluate<SeenCard[]>(`[...document.querySelectorAll("#providers article")].map((card) => ({
    title: card.querySelector("h2").textContent,
    plan: card.querySelector(".plan")?.textContent ?? null,
    badges: [...card.querySelectorAll(".badge")].map((b) => b.textContent),
    meters: [...card.querySelectorAll("section.meter")].map((m) => {
      const bar = m.querySelector("[role=meter]");
      return {
        label: m.querySelector("h3").textContent,
        percent: m.querySelector(".percent")?.textContent ?? null,
        valueNow: bar?.getAttribute("aria-valuenow") ?? null,
        named: bar ? document.getElementById(bar.getAttribute("aria-labelledby"))?.textContent ?? null : null,
        quantity: m.querySelector(".quantity")?.textContent ?? null,
        reset: m.querySelector(".reset")?.textContent ?? null,
        pace: m.querySelector(".pace")?.textContent ?? null,
        sparkline: m.querySelector("svg.spark[role=img][aria-label]") !== null,
      };
    }),
    error: card.querySelector(".error-message")?.textContent ?? null,
    hint: card.querySelector(".hint")?.textContent ?? null,
    visible: card.getBoundingClientRect().height > 0,
  }))`);

describe.skipIf(!tools)("quotabar serve's page in Chromium", () => {
  it("shows every provider as a card with its numbers and countdowns, an error with its hint, hostile text as text, and follows the next refresh", async () => {
    sim.sim.setScenario("openrouter", "unauthorized");
    const url = await serve();
    const doc = await usageOnceRefreshed(url);
    const page = await browser.newPage({ width: 1280, height: 900 });
    await page.goto(`${url}/`);
    await page.waitFor(`document.querySelectorAll("#providers article").length === ${doc.providers.length}`);
    const cards = await cardsOf(page);

    expect(cards.map((c) => c.title)).toEqual(doc.providers.map((p) => p.name));
    expect(await page.evaluate(`document.getElementById("cadence").textContent`)).toBe("quotabar serve refreshes each provider every 10s.");
    expect(doc.providers.length).toBeGreaterThanOrEqual(16);
    for (const [i, usage] of doc.providers.entries()) {
      const card = cards[i] as SeenCard;
      expect(card.visible, usage.id).toBe(true);
      expect(card.plan, usage.id).toBe(usage.plan);
      const meters = [usage.primary, usage.secondary, usage.tertiary].filter((m) => m !== null);
      expect(card.meters.map((m) => m.label)).toEqual(meters.map((m) => m.label));
      for (const [j, meter] of meters.entries()) {
        const seen = card.meters[j] as SeenMeter;
        if (meter.unlimited) expect(seen.percent).toBe("Unlimited");
        else if (meter.usedPercent !== null) {
          expect(seen.percent, `${usage.id} ${meter.label}`).toBe(`${formatPercent(meter.usedPercent)} used`);
          expect(seen.valueNow).toBe(String(meter.usedPercent));
          expect(seen.named).toBe(meter.label); // the meter's accessible name
        }
        if (meter.used !== null || meter.limit !== null) expect(seen.quantity, `${usage.id} ${meter.label}`).toMatch(/\d/);
        if (meter.resetsAt) expect(seen.reset, `${usage.id} ${meter.label}`).toMatch(/^resets in (\d+d \d+h|\d+h \d\dm|\d+m|\d+s)$/);
        if (meter.pace) expect(seen.pace, `${usage.id} ${meter.label}`).toMatch(/pace|reserve/i);
      }
    }
    const numbers = cards.flatMap((c) => c.meters).filter((m) => m.percent !== null);
    expect(numbers.length).toBeGreaterThan(20);
    expect(cards.flatMap((c) => c.meters).filter((m) => m.reset !== null).length).toBeGreaterThan(10);

    // the error card, with the hint the document gives
    const openrouter = doc.providers.find((p) => p.id === "openrouter");
    expect(openrouter?.error?.hint).toBeTruthy();
    const errorCard = cards.find((c) => c.title === openrouter?.name) as SeenCard;
    expect(errorCard.badges).toContain("Error");
    expect([errorCard.error, errorCard.hint]).toEqual([openrouter?.error?.message, openrouter?.error?.hint]);

    // z.ai's plan, markup from the upstream, is its characters: no element made of it, nothing run
    const zai = cards.find((c) => c.title === "z.ai") as SeenCard;
    expect(zai.plan).toBe(HOSTILE);
    expect(await page.evaluate("document.querySelectorAll('img').length")).toBe(0);
    expect(await page.evaluate("window.__pwned === undefined")).toBe(true);
    expect(page.console.filter((line) => /Content Security Policy|Refused to/i.test(line))).toEqual([]);

    // the next refresh: warp starts failing, its card says so (last numbers kept, marked stale) without a reload
    await page.evaluate("window.__sameDocument = true");
    sim.sim.setScenario("warp", "upstream_500");
    await page.waitFor(
      `[...document.querySelectorAll("#providers article")].some((c) => c.querySelector("h2").textContent === "Warp" && c.querySelector(".error-message"))`,
      45_000,
    );
    const warp = (await cardsOf(page)).find((c) => c.title === "Warp") as SeenCard;
    expect(warp.badges).toContain("Stale");
    expect(warp.meters[0]?.percent).toBe("81% used");
    expect(await page.evaluate("window.__sameDocument")).toBe(true);
    // two readings of a window by now: its sparkline
    expect((await cardsOf(page)).flatMap((c) => c.meters).some((m) => m.sparkline)).toBe(true);
  }, 120_000);

  it("is read at 360 px and at 4K without sideways scrolling, dark when the system is", async () => {
    const url = await serve();
    const doc = await usageOnceRefreshed(url);
    for (const [width, height, colorScheme] of [
      [360, 740, "dark"],
      [3840, 2160, "light"],
    ] as const) {
      const page = await browser.newPage({ width, height, colorScheme });
      await page.goto(`${url}/`);
      await page.waitFor(`document.querySelectorAll("#providers article").length === ${doc.providers.length}`);
      const layout = await page.evaluate<{ scrollWidth: number; columns: number; background: string; fontSize: number }>(`({
        scrollWidth: document.documentElement.scrollWidth,
        columns: new Set([...document.querySelectorAll("#providers article")].map((c) => Math.round(c.getBoundingClientRect().left))).size,
        background: getComputedStyle(document.body).backgroundColor,
        fontSize: parseFloat(getComputedStyle(document.documentElement).fontSize),
      })`);
      expect(layout.scrollWidth, `${width}px`).toBeLessThanOrEqual(width);
      if (width === 360) {
        expect(layout.columns).toBe(1);
        expect(layout.background).toBe("rgb(15, 18, 22)"); // --bg, dark
      } else {
        expect(layout.columns).toBeGreaterThanOrEqual(4);
        expect(layout.fontSize).toBeGreaterThan(20); // larger type on a large screen
        expect(layout.background).toBe("rgb(245, 246, 248)");
      }
    }
  }, 120_000);

  it("names the account in a card's title, and shows the cost section when the server answers /cost", async () => {
    // serve as it will be once accounts and /cost land: the page's own files, a document with two accounts of one provider
    const url = await serve();
    const doc = await usageOnceRefreshed(url);
    const warp = doc.providers.find((p) => p.id === "warp") as UsageDocument["providers"][number];
    const withAccounts = { ...doc, providers: [{ ...warp, account: "work" }, { ...warp, account: null }, ...doc.providers.slice(1, 3)] };
    const cost = {
      version: 1,
      currency: "USD",
      since: "2026-11-01",
      until: "2026-11-28",
      days: [],
      total: { costUsd: 41.5, requests: 10 },
      models: [
        { model: "claude-sonnet-4-5", agent: "claude", costUsd: 30.25 },
        { model: HOSTILE, agent: "codex", costUsd: 11.25 },
      ],
    };
    const stand = createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path === "/usage" || path === "/cost" || path === "/history") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify(path === "/usage" ? withAccounts : path === "/cost" ? cost : { version: 1, providers: [] }));
      }
      // the page's files, from the real serve
      void httpGet(`${url}${path}`).then((answer) => {
        res.writeHead(answer.status, { "content-type": String(answer.headers["content-type"]) });
        res.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => stand.listen(0, "127.0.0.1", resolve));
    try {
      const page = await browser.newPage({ width: 1024, height: 800 });
      await page.goto(`http://127.0.0.1:${(stand.address() as AddressInfo).port}/`);
      await page.waitFor(`document.querySelectorAll("#providers article").length === 4`);
      expect((await cardsOf(page)).map((c) => c.title).slice(0, 2)).toEqual(["Warp · work", "Warp"]);
      await page.waitFor(`!document.getElementById("cost").hidden`);
      const seen = await page.evaluate<{ heading: string; total: string; rows: string[][] }>(`({
        heading: document.querySelector("#cost h2").textContent,
        total: document.querySelector("#cost .cost-total").textContent,
        rows: [...document.querySelectorAll("#cost tbody tr")].map((tr) => [...tr.cells].map((td) => td.textContent)),
      })`);
      expect(seen).toEqual({
        heading: "Cost at API prices",
        total: "$41.50 · 2026-11-01 to 2026-11-28",
        rows: [
          ["claude-sonnet-4-5 (claude)", "$30.25"],
          [`${HOSTILE} (codex)`, "$11.25"],
        ],
      });
      expect(await page.evaluate("document.querySelectorAll('img').length")).toBe(0);
    } finally {
      await new Promise((resolve) => stand.close(resolve));
    }
  }, 120_000);

  it("off loopback, asks for the token once, keeps it in the tab (never in the URL), and says when it is wrong", async () => {
    const url = await serve({ QUOTABAR_SERVE_TOKEN: TOKEN });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const doc = await usageOnceRefreshed(url, auth);
    // reached by a name that is not loopback, as from another machine
    const remote = url.replace("127.0.0.1", "quotabar.test");
    const page = await browser.newPage({ width: 1024, height: 800 });
    await page.goto(`${remote}/`);
    await page.waitFor(`!document.getElementById("token-form").hidden`);
    expect(await page.evaluate("document.activeElement.id")).toBe("token");
    expect(await page.evaluate(`document.querySelectorAll("#providers article").length`)).toBe(0);

    await page.type("not-the-token-at-all-0000");
    await page.press("Enter");
    await page.waitFor(`document.getElementById("token-error").textContent.includes("refused")`);
    expect(await page.evaluate(`document.querySelectorAll("#providers article").length`)).toBe(0);

    await page.type(TOKEN);
    await page.press("Enter");
    await page.waitFor(`document.querySelectorAll("#providers article").length === ${doc.providers.length}`);
    expect(await page.evaluate(`document.getElementById("token-form").hidden`)).toBe(true);
    expect(await page.evaluate("location.href")).toBe(`${remote}/`);
    expect(await page.evaluate("sessionStorage.getItem('quotabar-serve-token')")).toBe(TOKEN);

    // a reload of the tab asks no more
    await page.goto(`${remote}/`);
    await page.waitFor(`document.querySelectorAll("#providers article").length === ${doc.providers.length}`);
    expect(await page.evaluate(`document.getElementById("token-form").hidden`)).toBe(true);
  }, 120_000);
});
