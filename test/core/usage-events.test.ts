import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FileTextStore } from "../../adapters/cache/file-text-store.js";
import { StoredNotifiedState } from "../../adapters/cache/stored-notified-state.js";
import { EventService } from "../../domain/event-service.js";
import { meter } from "../../domain/meter.js";
import { DEFAULT_NOTIFY, newEvents, notifySettings, type NotifySettings, type QuotabarEvent } from "../../domain/usage-events.js";
import type { Meter, ProviderStatus, ProviderUsage, UsageDocument } from "../../domain/usage-document.js";
import type { QuotabarConfig } from "../../ports/config-store.js";
import type { NotifiedState } from "../../ports/notified-state.js";
import { providerUsage, usageDocument } from "../helpers/usage.js";
import { accountKey } from "../../domain/account.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const NOW = new Date("2026-11-26T18:00:00.000Z");
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const RESET = "2026-11-26T20:00:00.000Z";

const tokens = (usedPercent: number, { pace, ...fields }: Partial<Meter> = {}): Meter => ({
  ...meter("Tokens", { usedPercent, resetsAt: RESET, windowMinutes: 300, ...fields }),
  ...(pace ? { pace } : {}),
});

const usage = (primary: Meter | null, extra: Partial<ProviderUsage> = {}): ProviderUsage =>
  providerUsage({ primary, fetchedAt: NOW.toISOString(), ...extra });

/** Feeds readings in turn, as refreshes would, and gives the events of each. */
function run(readings: ProviderUsage[], settings: NotifySettings = DEFAULT_NOTIFY, start: NotifiedState | null = null): QuotabarEvent[][] {
  let state = start;
  return readings.map((reading, i) => {
    const next = newEvents(reading, state, settings, new Date(NOW.getTime() + i * 60_000));
    state = next.state;
    return next.events;
  });
}

describe("threshold events", () => {
  it("has exactly the fields of the documented event, for a meter that crossed 80 %", () => {
    const [events] = run([usage(tokens(85))]);
    expect(events).toEqual([
      {
        type: "threshold",
        provider: "zai",
        account: null,
        meter: "primary",
        label: "Tokens",
        threshold: 80,
        usedPercent: 85,
        resetsAt: RESET,
        at: "2026-11-26T18:00:00.000Z",
      },
    ]);
    expect(JSON.stringify(events![0])).toBe(
      '{"type":"threshold","provider":"zai","account":null,"meter":"primary","label":"Tokens","threshold":80,"usedPercent":85,"resetsAt":"2026-11-26T20:00:00.000Z","at":"2026-11-26T18:00:00.000Z"}',
    );
  });

  it("tells each threshold once per window, every threshold crossed at once, and again in the next window", () => {
    const thresholds = (events: QuotabarEvent[]) => events.map((e) => (e.type === "threshold" ? `${e.meter}:${e.threshold}` : e.type));
    const nextWindow = iso(Date.parse(RESET) + 5 * HOUR);
    const steps = run([
      usage(tokens(50)),
      usage(tokens(81)),
      usage(tokens(90)),
      usage(tokens(79)), // a dip in the same window re-arms nothing
      usage(tokens(85)),
      usage(tokens(96)),
      usage(tokens(99)),
      usage(tokens(97, { resetsAt: nextWindow })), // the next window: both at once
      usage(tokens(98, { resetsAt: nextWindow })),
    ]);
    expect(steps.map(thresholds)).toEqual([[], ["primary:80"], [], [], [], ["primary:95"], [], ["primary:80", "primary:95"], []]);
  });

  it("keeps to one window while its reset time creeps a few minutes each refresh (a rolling window)", () => {
    const creeping = Array.from({ length: 20 }, (_, i) => usage(tokens(85, { resetsAt: iso(Date.parse(RESET) + i * 3 * 60_000) })));
    expect(run(creeping).flat()).toHaveLength(1);
  });

  it("re-arms a threshold of a meter without a reset time once usage fell 5 points below it", () => {
    const credits = (used: number) => meter("Credits", { usedPercent: used });
    const steps = run([usage(credits(82)), usage(credits(76)), usage(credits(83)), usage(credits(74)), usage(credits(81))]);
    expect(steps.map((e) => e.length)).toEqual([1, 0, 0, 0, 1]);
  });

  it("tells nothing of unlimited meters or meters without a ratio, and follows the thresholds configured", () => {
    const none = run([usage(tokens(100, { unlimited: true })), usage(tokens(0, { usedPercent: null }))]);
    expect(none.flat()).toEqual([]);
    const custom = run([usage(tokens(60))], { ...DEFAULT_NOTIFY, thresholds: [50, 60, 70] })[0]!;
    expect(custom.map((e) => (e.type === "threshold" ? e.threshold : null))).toEqual([50, 60]);
  });
});

describe("run-out events", () => {
  const pace = (runsOutAt: string | null) => ({
    expectedPercent: 60,
    deltaPercent: 10,
    runsOutAt,
    lastsToReset: runsOutAt === null,
    basis: "window" as const,
  });

  it("tells a forecast when it first appears in a window, once, and again in the next", () => {
    const nextWindow = iso(Date.parse(RESET) + 5 * HOUR);
    const steps = run([
      usage(tokens(50, { pace: pace(null) })),
      usage(tokens(60, { pace: pace("2026-11-26T19:30:00.000Z") })),
      usage(tokens(62, { pace: pace(null) })),
      usage(tokens(70, { pace: pace("2026-11-26T19:10:00.000Z") })),
      usage(tokens(30, { resetsAt: nextWindow, pace: pace("2026-11-27T00:00:00.000Z") })),
    ]);
    expect(steps.map((events) => events.filter((e) => e.type === "runOut"))).toEqual([
      [],
      [
        {
          type: "runOut",
          provider: "zai",
          account: null,
          meter: "primary",
          runsOutAt: "2026-11-26T19:30:00.000Z",
          resetsAt: RESET,
          at: "2026-11-26T18:01:00.000Z",
        },
      ],
      [],
      [],
      [expect.objectContaining({ type: "runOut", runsOutAt: "2026-11-27T00:00:00.000Z", resetsAt: nextWindow })],
    ]);
  });

  it("tells none when runOut is off", () => {
    expect(run([usage(tokens(60, { pace: pace("2026-11-26T19:30:00.000Z") }))], { ...DEFAULT_NOTIFY, runOut: false }).flat()).toEqual([]);
  });
});

describe("incident events", () => {
  const status = (...incidents: [string, string][]): ProviderStatus => ({
    indicator: incidents.length > 0 ? "minor" : "none",
    description: "",
    url: "https://status.z.ai",
    incidents: incidents.map(([name, impact]) => ({ name, impact, url: `https://status.z.ai/incidents/${name.length}`, updatedAt: null })),
  });

  it("tells each new incident once, and one that closed and opened again once more", () => {
    const steps = run([
      usage(null, { status: status() }),
      usage(null, { status: status(["API errors", "major"]) }),
      usage(null, { status: status(["API errors", "major"]) }),
      usage(null, { status: null }), // the page could not be read: nothing changes
      usage(null, { status: status(["API errors", "major"], ["Slow dashboard", "unknown"]) }),
      usage(null, { status: status() }),
      usage(null, { status: status(["API errors", "major"]) }),
    ]);
    expect(steps.map((events) => events.map((e) => (e.type === "incident" ? `${e.title} (${e.indicator})` : e.type)))).toEqual([
      [],
      ["API errors (major)"],
      [],
      [],
      ["Slow dashboard (minor)"],
      [],
      ["API errors (major)"],
    ]);
    expect(steps[1]![0]).toEqual({
      type: "incident",
      provider: "zai",
      account: null,
      indicator: "major",
      title: "API errors",
      url: "https://status.z.ai/incidents/10",
      at: "2026-11-26T18:01:00.000Z",
    });
  });

  it("tells none when incidents are off", () => {
    expect(run([usage(null, { status: status(["API errors", "major"]) })], { ...DEFAULT_NOTIFY, incidents: false }).flat()).toEqual([]);
  });
});

describe("notify settings", () => {
  it("default to 80 and 95 %, run-out and incidents; the root's then the provider's notify override field by field", () => {
    const config: QuotabarConfig = {
      providers: [
        { id: "warp", notify: { thresholds: [95, 50, 95] } },
        { id: "zai", notify: { incidents: false } },
      ],
      notify: { thresholds: [90], runOut: false },
    };
    expect(notifySettings({ providers: [] }, "zai")).toEqual({ thresholds: [80, 95], runOut: true, incidents: true });
    expect(notifySettings(config, "zai")).toEqual({ thresholds: [90], runOut: false, incidents: false });
    expect(notifySettings(config, "warp")).toEqual({ thresholds: [50, 95], runOut: false, incidents: true });
    expect(notifySettings(config, "copilot")).toEqual({ thresholds: [90], runOut: false, incidents: true });
  });
});

describe("EventService (state kept beside the history)", () => {
  const document = (primary: Meter): UsageDocument => usageDocument(NOW, usage(primary));
  const services = (dir: string, config: Partial<QuotabarConfig> = {}) =>
    new EventService({
      config: { path: () => "/tmp/config.json", load: async () => ({ providers: [], ...config }), update: async () => ({ providers: [] }) },
      clock: { now: () => NOW },
      notified: new StoredNotifiedState(new FileTextStore(dir)),
    });

  it("raises an event once across restarts and across two processes raising at once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "qb-events-"));
    dirs.push(dir);
    const [a, b] = [services(dir), services(dir)];
    const raced = await Promise.all([a.raise(document(tokens(96))), b.raise(document(tokens(96))), a.raise(document(tokens(96)))]);
    expect(raced.flat().map((e) => (e.type === "threshold" ? e.threshold : null))).toEqual([80, 95]);
    // a restart: a new service on the same directory
    expect(await services(dir).raise(document(tokens(97)))).toEqual([]);
    expect(JSON.parse(readFileSync(join(dir, "history", "zai-notified.json"), "utf8"))).toEqual({
      meters: { primary: { resetsAt: RESET, thresholds: [80, 95], runOut: false } },
      incidents: [],
    });
    await a.forget([accountKey("zai")]);
    expect(await a.raise(document(tokens(97)))).toHaveLength(2);
  });

  it("reads the notify settings from the config, and a damaged state file counts as none", async () => {
    const dir = mkdtempSync(join(tmpdir(), "qb-events-"));
    dirs.push(dir);
    const quiet = services(dir, { notify: { thresholds: [] } });
    expect(await quiet.raise(document(tokens(99)))).toEqual([]);
    await new FileTextStore(dir).write("history/zai-notified", "{not json");
    expect(await services(dir).raise(document(tokens(99)))).toHaveLength(2);
  });
});
