/**
 * A scenario's usage document, fetched the way the extension fetches it: through the Raycast
 * composition root, with preferences holding the simulator's keys, in-memory LocalStorage and Cache,
 * against the simulator (in its own process). Free of React.
 */
import http from "node:http";
import type { UsageDocument } from "../../domain/usage-document.js";
import type { ProviderListing } from "../../domain/usage-service.js";
import type { Core } from "../../library/compose-core.js";
import { DESCRIPTORS } from "../../providers/registry.js";
import { PROVIDER_PREFERENCES, type QuotabarPreferences } from "../shared/preferences.js";
import { createRaycastCore } from "../shared/raycast-core.js";
import { memoryCache, memoryLocalStorage } from "../doubles/memory-stores.js";
import type { Scenario } from "./scenarios.js";
import type { SimulatorProcess } from "./simulator-client.js";

/** What the preview needs of the simulator: its environment, its providers, and switching scenarios. */
export type Simulator = Pick<SimulatorProcess, "env" | "providers" | "play">;

/**
 * Every request of the preview on a connection of its own. A kept-alive connection that sat idle
 * while the preview waited on Chromium can be closed by the simulator at the moment it is reused;
 * a GET is retried, a POST (Warp's GraphQL, the device flow) is not and would show a network error.
 */
export function oneConnectionPerRequest(): void {
  http.globalAgent = new http.Agent({ keepAlive: false });
}

/** The providers the screenshots show (the ones the simulator plays), at most four so the menu fits. */
export function shownProviders(sim: Simulator): string[] {
  const played = new Set(sim.providers.map((p) => p.id));
  return ["copilot", "openrouter", "zai", "warp", "kimi", "minimax", "kilo"].filter((id) => played.has(id)).slice(0, 4);
}

/** The simulator's keys as Raycast preferences (a key typed in Preferences is how a user sets a provider up). */
export function preferencesFrom(env: Record<string, string>): QuotabarPreferences {
  const preferences: QuotabarPreferences = { statusChecks: true };
  for (const preference of PROVIDER_PREFERENCES) {
    if (preference.setting.field !== "apiKey") continue;
    const names = DESCRIPTORS.find((d) => d.id === preference.provider)?.credentialEnv ?? [];
    const value = names.map((n) => env[n]).find(Boolean);
    if (value) preferences[preference.name] = value;
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

/** The scenario's usage document, and the provider listing the list takes its "Not Set Up" rows from. */
export async function documentFor(
  sim: Simulator,
  scenario: Scenario,
  home: string,
  now: Date,
): Promise<{ document: UsageDocument; listing: ProviderListing[]; providers: string[] }> {
  const cache = memoryCache();
  const preferences = scenario.empty ? {} : preferencesFrom(sim.env());
  const core = (at: Date) => previewCore(sim, { home, at, preferences, cache });
  const listing = await core(now).usage.listProviders();
  if (scenario.empty) return { document: { version: 1, generatedAt: now.toISOString(), providers: [] }, listing, providers: [] };
  const providers = shownProviders(sim);
  const fetchAt = async (at: Date, scenarios: Record<string, string>) => {
    await sim.play(scenarios);
    return core(at).usage.usage({ providers, status: true });
  };
  if (scenario.before) await fetchAt(new Date(now.getTime() - scenario.before.hoursAgo * 3_600_000), scenario.before.sim);
  return { document: await fetchAt(now, scenario.sim), listing, providers };
}
