import { mkdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { hostOs } from "../kit/index.js";
import type { SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { fixturesOf } from "../../simulator/fixtures.js";
import { ideBases, QUOTA_FILE } from "./ides.js";

const fixture = fixturesOf(import.meta.url);

/**
 * JetBrains AI has no upstream to play: its "upstream" is a home folder holding IDE config folders.
 * `quotabar demo` and the tests lay one out with these scenarios; the first is the default.
 */
export const JETBRAINS_SCENARIOS = ["ok", "exhausted", "malformed", "not_detected"] as const;
export type JetBrainsScenario = (typeof JETBRAINS_SCENARIOS)[number];

/** Vendor folder (Google for Android Studio), IDE folder, fixture, hours since the IDE wrote it. */
type Seed = [vendor: "JetBrains" | "Google", folder: string, fixture: string, hoursAgo: number];

const SEEDS: Record<JetBrainsScenario, Seed[]> = {
  ok: [
    ["JetBrains", "IntelliJIdea2025.1", "intellij-idea.xml", 1],
    ["JetBrains", "PyCharm2024.3", "pycharm.xml", 30],
    ["Google", "AndroidStudio2025.1", "android-studio.xml", 72],
  ],
  exhausted: [["JetBrains", "IntelliJIdea2025.1", "exhausted.xml", 1]],
  malformed: [["JetBrains", "IntelliJIdea2025.1", "malformed.xml", 1]],
  not_detected: [],
};

export interface SeedOptions {
  platform?: NodeJS.Platform;
  /** Rewrites each file's text before it is written (the demo moves its times from `recordedAt` to now). */
  dates?: (text: string) => string;
  now?: Date;
}

/** Writes the scenario's IDE folders under `home` where this platform's IDEs keep them, newest first by mtime. */
export async function seedJetBrainsHome(home: string, scenario: JetBrainsScenario, options: SeedOptions = {}): Promise<void> {
  const bases = ideBases({ HOME: home }, options.platform ?? hostOs().platform);
  const now = (options.now ?? new Date()).getTime();
  for (const [vendor, folder, name, hoursAgo] of SEEDS[scenario]) {
    const base = bases.find((b) => b.endsWith(vendor));
    if (base === undefined) continue;
    const dir = join(base, folder, "options");
    await mkdir(dir, { recursive: true });
    const file = join(dir, QUOTA_FILE);
    await writeFile(file, (options.dates ?? ((t: string) => t))(fixture(name)));
    const at = new Date(now - hoursAgo * 3_600_000);
    await utimes(file, at, at);
  }
}

/** JetBrains as the simulator plays it: no routes, a home with IDE folders. */
export const jetbrainsUpstream: SimulatedUpstream = {
  id: "jetbrains",
  origins: [],
  env: {},
  // two weeks before IntelliJ IDEA's and PyCharm's 30-day refill, three before Android Studio's
  recordedAt: "2026-03-20T12:00:00Z",
  scenarios: JETBRAINS_SCENARIOS,
  routes: [],
  seedHome: (home, scenario, dates) => seedJetBrainsHome(home, scenario as JetBrainsScenario, { dates }),
};
