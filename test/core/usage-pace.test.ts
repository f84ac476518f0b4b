import { catalogOf } from "../../domain/provider-catalog.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { noBrowserAccess } from "../../adapters/browser/lazy-browser-access.js";
import { FileTextStore } from "../../adapters/cache/file-text-store.js";
import { StoredKeptValues } from "../../adapters/cache/stored-kept-values.js";
import { StoredSnapshotCache } from "../../adapters/cache/stored-snapshot-cache.js";
import { StoredUsageHistory } from "../../adapters/cache/stored-usage-history.js";
import { NodeProcessRunner } from "../../adapters/process/node-process-runner.js";
import { MemorySecretStore } from "../../adapters/secrets/memory-secret-store.js";
import { QuotabarError } from "../../domain/errors.js";
import { meter } from "../../domain/meter.js";
import { UsageService } from "../../domain/usage-service.js";
import { writeCliRemedies } from "../../library/remedy-text.js";
import type { AnyFetchStrategy } from "../../ports/fetch-strategy.js";
import type { ProviderCatalog, ProviderModule } from "../../ports/provider-module.js";
import { DESCRIPTORS } from "../../providers/registry.js";
import { accountKey } from "../../domain/account.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The window every reading belongs to: five hours, resetting at 20:00. */
const RESETS_AT = "2026-11-26T20:00:00.000Z";

/** A z.ai stand-in whose upstream answers `reading.percent` (or fails), on a clock the test moves. */
function setup({ withHistory = true } = {}) {
  const clock = { ms: Date.parse("2026-11-26T18:00:00.000Z"), now: () => new Date(clock.ms) };
  const reading = { percent: 40, fail: false };
  const zai: AnyFetchStrategy = {
    source: "api",
    credentials: { resolve: async () => "zai-key" },
    fetch: async () => (reading.fail ? Promise.reject(new QuotabarError("upstream", "HTTP 500")) : reading.percent),
    toSnapshot: (percent: number) => ({
      plan: null,
      primary: meter("Tokens", { usedPercent: percent, resetsAt: RESETS_AT, windowMinutes: 300 }),
      secondary: meter("Credits", { usedPercent: 10 }),
      tertiary: null,
      details: [],
    }),
    missingCredential: () => new QuotabarError("not_configured", "no key"),
  };
  const modules: ProviderModule[] = DESCRIPTORS.map((descriptor) => ({ descriptor, strategies: descriptor.id === "zai" ? [zai] : [] }));
  const catalog: ProviderCatalog = catalogOf(modules);
  const store = new FileTextStore(mkdtempSync(join(tmpdir(), "qb-pace-")));
  const history = new StoredUsageHistory(store);
  const service = new UsageService({
    catalog,
    config: { path: () => "/tmp/config.json", load: async () => ({ providers: [] }), update: async () => ({ providers: [] }) },
    cache: new StoredSnapshotCache(store),
    clock,
    env: {},
    status: { statusFor: async () => null },
    transport: { send: async () => Promise.reject(new Error("no network in this test")) },
    processes: new NodeProcessRunner(),
    browsers: noBrowserAccess(),
    writeRemedies: writeCliRemedies,
    kept: new StoredKeptValues(store, new MemorySecretStore(), clock),
    ...(withHistory ? { history } : {}),
  });
  const fetch = async () => (await service.usage({ providers: ["zai"] })).providers[0]!;
  return { clock, reading, fetch, history };
}

describe("pace in the usage document", () => {
  it("is on every meter with a window, from the window's average at first; a meter without one has no pace field", async () => {
    const { fetch } = setup();
    const zai = await fetch();
    expect(zai.primary!.pace).toEqual({ expectedPercent: 60, deltaPercent: -20, runsOutAt: null, lastsToReset: true, basis: "window" });
    expect(zai.secondary).not.toHaveProperty("pace");
  });

  it("comes from the kept readings once there are enough in the window, and each fetch adds one", async () => {
    const { clock, reading, fetch, history } = setup();
    // a burst early in the window (70 % in its first 2 hours), then 5 points in the next hour: slow enough to last
    clock.ms -= HOUR;
    for (const percent of [70, 72, 75]) {
      reading.percent = percent;
      await fetch();
      clock.ms += 20 * MINUTE;
    }
    const zai = await fetch();
    expect((await history.read(accountKey("zai"), ["zai-key"])).meters[0]!.points.map((p) => p.usedPercent)).toEqual([70, 72, 75, 75]);
    expect(zai.primary!.pace).toMatchObject({ basis: "history", lastsToReset: true, runsOutAt: null });
    // the window's average alone (75 % after 3 hours) runs out at 4 hours, 19:00
    const alone = setup({ withHistory: false });
    alone.clock.ms = clock.ms;
    alone.reading.percent = 75;
    expect((await alone.fetch()).primary!.pace).toMatchObject({
      basis: "window",
      lastsToReset: false,
      runsOutAt: "2026-11-26T19:00:00.000Z",
    });
  });

  it("is worked out afresh for a stale snapshot, at the time it is served", async () => {
    const { clock, reading, fetch } = setup();
    reading.percent = 50;
    await fetch();
    reading.fail = true;
    clock.ms += HOUR;
    const stale = await fetch();
    expect(stale).toMatchObject({ ok: false, stale: true, error: { code: "upstream" } });
    // 4 hours of 5 gone now: 80 % expected, 50 % used
    expect(stale.primary!.pace).toEqual({ expectedPercent: 80, deltaPercent: -30, runsOutAt: null, lastsToReset: true, basis: "window" });
    // once the reset has passed, the stale numbers belong to a window that is over: no pace
    clock.ms += 2 * HOUR;
    expect((await fetch()).primary).not.toHaveProperty("pace");
  });
});
