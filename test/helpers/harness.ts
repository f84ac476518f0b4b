import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createQuotabar, type Quotabar } from "../../index.js";
import type { SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { ProviderSimulator } from "../../simulator/server.js";
import { simulatedUpstreams } from "../../simulator/upstreams.js";

/** Pins the time zone for a test file (local days depend on it), as it was again after the file's tests. */
export function pinTimeZone(zone: string): void {
  const before = process.env.TZ;
  process.env.TZ = zone;
  afterAll(() => {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  });
}

/** A fresh HOME (config and cache live under it) per test file. */
export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), "quotabar-test-"));
}

/**
 * Starts the simulator for a test file, resets scenarios after each test, and builds a library
 * instance pointed at it with an isolated HOME.
 */
export function useSimulator(
  options: {
    upstreams?: (all: readonly SimulatedUpstream[]) => SimulatedUpstream[];
    /** Times moved to now, as `quotabar demo` plays them (resets ahead, countdowns running). */
    liveDates?: boolean;
  } = {},
) {
  const state: { sim: ProviderSimulator; home: string } = {} as never;
  beforeAll(async () => {
    // `upstreams` plays them differently (a test that changes their answers)
    state.sim = await ProviderSimulator.start({
      ...(options.upstreams ? { providers: options.upstreams(await simulatedUpstreams()) } : {}),
      ...(options.liveDates ? { liveDates: true } : {}),
    });
    state.home = tempHome();
  });
  afterEach(() => {
    for (const p of state.sim.providers) state.sim.setScenario(p.id, p.scenarios[0] as string);
    state.sim.requests.length = 0;
    state.sim.setDelay(0);
    rmSync(join(state.home, ".cache"), { recursive: true, force: true });
  });
  afterAll(async () => {
    await state.sim.stop();
    rmSync(state.home, { recursive: true, force: true });
  });
  return {
    get sim() {
      return state.sim;
    },
    get home() {
      return state.home;
    },
    /**
     * Environment for the library or the CLI: simulator origin map, working keys, isolated HOME, and
     * cookie headers cached in memory only (no test touches the OS keyring).
     */
    env(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
      return {
        ...state.sim.env(),
        HOME: state.home,
        XDG_CONFIG_HOME: undefined,
        XDG_CACHE_HOME: undefined,
        QUOTABAR_SECRET_STORE: "memory",
        ...extra,
      };
    },
    quotabar(extra: Record<string, string | undefined> = {}, timeoutMs?: number): Quotabar {
      return createQuotabar({ env: this.env(extra), ...(timeoutMs ? { fetchTimeoutMs: timeoutMs } : {}) });
    },
  };
}
