import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Meter, ProviderUsage, UsageDocument } from "../../domain/usage-document.js";
import { createQuotabar } from "../../index.js";
import type { SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { ProviderSimulator } from "../../simulator/server.js";

/**
 * `quotabar demo` (and the Raycast preview) serve the fixtures with live dates: every window, reset
 * and age must read as it did when the fixtures were recorded. Checked for every upstream that says
 * when it was recorded; these must.
 */
const RECORDED = ["copilot", "openrouter", "zai", "warp", "kimi", "kilo", "minimax", "kimik2", "jetbrains", "kiro"];
const DAY_MS = 86_400_000;
/** Nothing the demo shows resets further away than a month. */
const MONTH_MS = 31 * DAY_MS;
/** Scenarios that never answer with usage, or take a minute to. */
const NO_USAGE = /^(?:slow|upstream_500|echo_headers(?:_ok)?|hang|table_then_hang|stats_slow|deeply_nested|device_\w+)$/;

interface Run {
  doc: UsageDocument;
  /** Date.now() before and after the fetch: every time the simulator moved lies between. */
  before: number;
  after: number;
}

/** What `quotabar demo` does: the simulator, the local providers' files under a throwaway home, the library. */
async function demo(sim: ProviderSimulator, providers: readonly string[]): Promise<Run> {
  const home = mkdtempSync(join(tmpdir(), "quotabar-demo-dates-"));
  try {
    await sim.seedHome(home, providers);
    const env = { ...sim.env(), HOME: home, PATH: process.env.PATH, XDG_CONFIG_HOME: undefined, XDG_CACHE_HOME: undefined };
    const before = Date.now();
    const doc = await createQuotabar({ env }).usage({ providers, timeoutMs: 10_000 });
    return { doc, before, after: Date.now() };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const metersOf = (p: ProviderUsage) => [p.primary, p.secondary, p.tertiary].filter((m): m is Meter => m !== null);
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

/** A reset in the future ("reset due" never shows), and within its window when it has one. */
function expectResetFits(where: string, m: Meter, run: Run, horizonMs: number | null): void {
  if (m.resetsAt === null) return;
  expect(at(m.resetsAt), `${where} ${m.label} resets at ${m.resetsAt}, not after ${iso(run.after)}`).toBeGreaterThan(run.after);
  const windowMs = m.windowMinutes !== null ? m.windowMinutes * 60_000 : horizonMs;
  if (windowMs === null) return;
  expect(at(m.resetsAt), `${where} ${m.label} resets at ${m.resetsAt}, beyond its ${windowMs / 60_000}-minute window`).toBeLessThanOrEqual(
    run.after + windowMs,
  );
}

/** Times written in a text: ISO times, "2026-12-01 00:00 UTC", and days ("on 2026-03-02"), in order. */
function timesIn(text: string): { ms: number; day: boolean }[] {
  const found: { ms: number; day: boolean }[] = [];
  for (const [, date, time, zone] of text.matchAll(/\b(\d{4}-\d\d-\d\d)(?:[T ](\d\d:\d\d(?::\d\d(?:\.\d+)?)?)(Z|[+-]\d\d:\d\d| UTC)?)?/g)) {
    const ms = Date.parse(time ? `${date}T${time}${zone && zone !== " UTC" ? zone : "Z"}` : `${date}T00:00:00Z`);
    if (!Number.isNaN(ms)) found.push({ ms, day: time === undefined });
  }
  return found;
}

describe("demo dates: fixtures shifted from when they were recorded to now", () => {
  let verbatim: Run;
  let live: Run;
  let upstreams: readonly SimulatedUpstream[];
  let ids: string[];
  let liveSim: ProviderSimulator;

  beforeAll(async () => {
    const sim = await ProviderSimulator.start();
    liveSim = await ProviderSimulator.start({ liveDates: true });
    upstreams = liveSim.providers;
    ids = upstreams.filter((u) => u.recordedAt !== undefined).map((u) => u.id);
    try {
      [verbatim, live] = await Promise.all([demo(sim, ids), demo(liveSim, ids)]);
    } finally {
      await sim.stop();
    }
  }, 60_000);

  afterAll(async () => {
    await liveSim.stop();
  });

  it("knows when each of these providers' fixtures were recorded", () => {
    for (const id of RECORDED) expect(ids, `${id} has no recordedAt`).toContain(id);
  });

  it("resets every meter within its window (a 5-hour one within 5 hours), and nothing later than a month", () => {
    for (const p of live.doc.providers) {
      expect(p.error, p.id).toBeNull();
      for (const m of metersOf(p)) expectResetFits(p.id, m, live, MONTH_MS);
    }
  });

  it("keeps past times in the past and future ones in the future", () => {
    for (const p of verbatim.doc.providers) {
      const recordedAt = at(upstreams.find((u) => u.id === p.id)?.recordedAt as string);
      const shown = live.doc.providers.find((q) => q.id === p.id) as ProviderUsage;
      for (const detail of [...p.details, ...metersOf(p).map((m) => ({ label: m.label, value: m.note ?? "" }))]) {
        const was = timesIn(detail.value);
        const liveValue = [...shown.details, ...metersOf(shown).map((m) => ({ label: m.label, value: m.note ?? "" }))].find(
          (d) => d.label === detail.label,
        )?.value;
        const is = timesIn(liveValue ?? "");
        expect(is.length, `${p.id} ${detail.label}: ${liveValue}`).toBe(was.length);
        was.forEach((time, index) => {
          const now = is[index] as { ms: number; day: boolean };
          const where = `${p.id} ${detail.label}: "${detail.value}" became "${liveValue}"`;
          // a day is past when it is not after today (UTC)
          const pastAtRecording = time.day ? time.ms <= recordedAt : time.ms < recordedAt;
          if (pastAtRecording) expect(now.ms, where).toBeLessThanOrEqual(live.after);
          else expect(now.ms + (now.day ? DAY_MS : 0), where).toBeGreaterThan(live.before);
        });
      }
    }
  });

  it("fits every window in every scenario that shows usage", async () => {
    const recorded = upstreams.filter((u) => RECORDED.includes(u.id));
    await Promise.all(
      recorded.map(async (upstream) => {
        for (const scenario of upstream.scenarios.filter((s) => !NO_USAGE.test(s))) {
          liveSim.setScenario(upstream.id, scenario);
          const run = await demo(liveSim, [upstream.id]);
          for (const p of run.doc.providers) for (const m of metersOf(p)) expectResetFits(`${p.id}/${scenario}`, m, run, null);
        }
        liveSim.setScenario(upstream.id, upstream.scenarios[0] as string);
      }),
    );
  }, 120_000);
});
