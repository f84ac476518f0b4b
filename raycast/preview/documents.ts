/**
 * A scenario's usage document, fetched the way the extension fetches it: through the Raycast
 * composition root, with preferences holding the simulator's keys, in-memory LocalStorage and Cache,
 * against the simulator (in its own process). Free of React.
 */
import { mkdirSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { StoredUsageHistory } from "../../adapters/cache/stored-usage-history.js";
import { secretsOf } from "../../domain/scoped-http.js";
import type { ProviderUsage, UsageDocument } from "../../domain/usage-document.js";
import type { ProviderListing } from "../../domain/usage-service.js";
import type { Core } from "../../library/compose-core.js";
import type { ProviderHistory } from "../../ports/usage-history.js";
import { DESCRIPTORS } from "../../providers/registry.js";
import { CacheTextStore } from "../shared/adapters/cache-text-store.js";
import type { SyncKeyValueStore } from "../shared/adapters/key-value.js";
import { credentialPreferenceOf, preferenceOf, type QuotabarPreferences } from "../shared/preferences.js";
import { createRaycastCore } from "../shared/raycast-core.js";
import { memoryCache, memoryLocalStorage } from "../doubles/memory-stores.js";
import { PreviewError } from "./problems.js";
import { SHOWN_PROVIDERS, type EarlierReadings, type Scenario } from "./scenarios.js";
import type { SimulatorProcess } from "./simulator-client.js";

/** What the preview needs of the simulator: its environment, its providers, switching scenarios and laying out a home. */
export type Simulator = Pick<SimulatorProcess, "env" | "providers" | "play" | "seedHome">;

/**
 * Every request of the preview on a connection of its own. A kept-alive connection that sat idle
 * while the preview waited on Chromium can be closed by the simulator at the moment it is reused;
 * a GET is retried, a POST (Warp's GraphQL, the device flow) is not and would show a network error.
 */
export function oneConnectionPerRequest(): void {
  http.globalAgent = new http.Agent({ keepAlive: false });
}

/** The providers `scenario` shows; one the simulator does not play is an error, not a shorter list. */
export function shownProviders(sim: Simulator, scenario: Scenario): string[] {
  const shown = [...(scenario.providers ?? SHOWN_PROVIDERS)];
  const unplayed = shown.filter((id) => !sim.providers.some((p) => p.id === id));
  if (unplayed.length > 0)
    throw new PreviewError(`the "${scenario.title}" scenario shows ${unplayed.join(", ")}, which the simulator does not play`);
  return shown;
}

/**
 * The simulator's credentials as Raycast preferences, for `providers`: a key or cookie typed in
 * Preferences is how a user sets those up. A provider whose simulator lays out files in a home
 * (Claude Code's, Codex's, the Gemini CLI's sign-in) is set up by those instead.
 */
export function preferencesFrom(sim: Pick<Simulator, "env" | "providers">, providers: readonly string[]): QuotabarPreferences {
  const env = sim.env();
  const preferences: QuotabarPreferences = { statusChecks: true };
  for (const id of providers) {
    if (sim.providers.find((p) => p.id === id)?.seedsHome) continue;
    const preference = credentialPreferenceOf(id);
    const names = DESCRIPTORS.find((d) => d.id === id)?.credentialEnv ?? [];
    const value = names.map((n) => env[n]).find(Boolean);
    if (preference && value) preferences[preference.name] = value;
  }
  return preferences;
}

/** A Raycast core on the simulator, with its clock pinned to `at`. */
export function previewCore(
  sim: Simulator,
  options: { home: string; at: Date; preferences: QuotabarPreferences; cache?: ReturnType<typeof memoryCache> },
): Core {
  return createRaycastCore({
    preferences: options.preferences,
    localStorage: memoryLocalStorage(),
    cache: options.cache ?? memoryCache(),
    env: { HOME: options.home, QUOTABAR_ORIGIN_MAP: sim.env().QUOTABAR_ORIGIN_MAP },
    clock: { now: () => options.at },
  });
}

/**
 * Earlier readings of one meter, kept in the preview's Cache as earlier refreshes would have kept
 * them: the meter of `usage` (the screenshot's fetch) with each reading's used percent, at its time,
 * under the key the provider's preference holds (the history belongs to a credential).
 */
export async function keepEarlierReadings(
  cache: SyncKeyValueStore,
  originMap: string,
  preferences: QuotabarPreferences,
  usage: ProviderUsage,
  earlier: EarlierReadings,
  now: Date,
): Promise<void> {
  const meter = usage[earlier.meter];
  const key = preferences[preferenceOf(usage.id, "apiKey")?.name ?? ""];
  if (!meter || typeof key !== "string")
    throw new Error(`the preview keeps readings of ${usage.id} ${earlier.meter}, which it cannot read`);
  const history = new StoredUsageHistory(new CacheTextStore(cache), originMap);
  for (const { minutesAgo, usedPercent } of earlier.readings) {
    const used = meter.limit === null ? null : Math.round((meter.limit * usedPercent) / 100);
    await history.append(
      {
        ...usage,
        primary: null,
        secondary: null,
        tertiary: null,
        [earlier.meter]: { ...meter, usedPercent, used, pace: null },
        fetchedAt: new Date(now.getTime() - minutesAgo * 60_000).toISOString(),
      },
      secretsOf(key),
    );
  }
}

/**
 * The scenario's usage document, the provider listing the list takes its "Not Set Up" rows from, and
 * the kept history it charts. The scenario gets a HOME of its own under `home` (the new user's stays
 * empty), its providers' files laid out there in the scenario each plays.
 */
export async function documentFor(
  sim: Simulator,
  scenario: Scenario,
  home: string,
  now: Date,
): Promise<{ document: UsageDocument; listing: ProviderListing[]; providers: string[]; history: ProviderHistory[] }> {
  const cache = memoryCache();
  const providers = scenario.empty ? [] : shownProviders(sim, scenario);
  const scenarioHome = join(home, scenario.id);
  mkdirSync(scenarioHome, { recursive: true });
  const preferences = preferencesFrom(sim, providers);
  const core = (at: Date) => previewCore(sim, { home: scenarioHome, at, preferences, cache });
  const play = async (scenarios: Record<string, string>) => {
    await sim.play(scenarios);
    if (providers.length > 0) await sim.seedHome(scenarioHome, providers);
  };
  await play(scenario.sim);
  const listing = await core(now).usage.listProviders();
  if (scenario.empty)
    return { document: { version: 1, generatedAt: now.toISOString(), providers: [] }, listing, providers: [], history: [] };
  const fetchAt = async (at: Date, scenarios: Record<string, string>) => {
    await play(scenarios);
    return core(at).usage.usage({ providers, status: true });
  };
  if (scenario.before) await fetchAt(new Date(now.getTime() - scenario.before.hoursAgo * 3_600_000), scenario.before.sim);
  if (scenario.history) {
    // a first fetch gives the meter and its window; the earlier readings are kept in that window
    const first = (await fetchAt(now, scenario.sim)).providers.find((p) => p.id === scenario.history!.provider);
    if (first) await keepEarlierReadings(cache, sim.env().QUOTABAR_ORIGIN_MAP ?? "", preferences, first, scenario.history, now);
  }
  const document = await fetchAt(now, scenario.sim);
  return { document, listing, providers, history: await core(now).history({ providers }) };
}
