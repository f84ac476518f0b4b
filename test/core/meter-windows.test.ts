import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Meter, ProviderUsage } from "../../domain/usage-document.js";
import { createQuotabar } from "../../index.js";
import { antigravitySnapshot } from "../../providers/antigravity/policy.js";
import { readQuota } from "../../providers/antigravity/quota.js";
import { PROVIDER_IDS } from "../../providers/registry.js";
import { ProviderSimulator } from "../../simulator/server.js";

/**
 * Pace needs each window's length: every meter that says when it resets must say how long its window
 * is (`windowMinutes`), in every scenario of every provider, unless the provider's README says why
 * none can be known: a paragraph starting with `No window:` that names the meter's label in bold
 * (`**Bonus credits**`), or `**every meter**` where the labels are the upstream's own (model names).
 */
const NO_WINDOW = "No window:";
const EVERY_METER = "every meter";
/** Scenarios that never answer with usage, or take a minute to. */
const NO_USAGE = /^(?:slow|upstream_500|echo_headers(?:_ok)?|hang|table_then_hang|stats_slow|deeply_nested|device_\w+)$/;
const root = join(import.meta.dirname, "..", "..");

const readme = (id: string) => readFileSync(join(root, "providers", id, "README.md"), "utf8");
const metersOf = (p: ProviderUsage) => [p.primary, p.secondary, p.tertiary].filter((m): m is Meter => m !== null);

/** A meter that resets but has no window length, and where it was seen ("copilot/ok"). */
interface Missing {
  where: string;
  label: string;
}

const withoutWindow = (where: string, meters: readonly Meter[]): Missing[] =>
  meters.filter((m) => m.resetsAt !== null && m.windowMinutes === null).map((m) => ({ where, label: m.label }));

/** The labels (lower case) a README's `No window:` paragraphs name in bold. */
function exemptLabels(id: string): string[] {
  const text = readme(id);
  const labels: string[] = [];
  for (let at = text.indexOf(NO_WINDOW); at !== -1; at = text.indexOf(NO_WINDOW, at + 1)) {
    const end = text.indexOf("\n\n", at);
    const paragraph = text.slice(at, end === -1 ? undefined : end);
    for (const [, label] of paragraph.matchAll(/\*\*([^*]+)\*\*/g)) labels.push((label as string).trim().toLowerCase());
  }
  return labels;
}

const isExempt = (label: string, exempt: readonly string[]) => exempt.includes(EVERY_METER) || exempt.includes(label.toLowerCase());

/** Antigravity's upstream is the running app's language server, which the simulator does not play: its fixtures, through its policy. */
function antigravityMeters(): Missing[] {
  const dir = join(root, "providers", "antigravity", "fixtures");
  const missing: Missing[] = [];
  for (const name of readdirSync(dir).filter((file) => file.endsWith(".json"))) {
    for (const method of ["GetUserStatus", "GetCommandModelConfigs"] as const) {
      let snapshot;
      try {
        snapshot = antigravitySnapshot(readQuota(method, readFileSync(join(dir, name), "utf8")));
      } catch {
        continue; // not an answer of this method, or an error answer
      }
      const meters = [snapshot.primary, snapshot.secondary, snapshot.tertiary].filter((m): m is Meter => m !== null);
      missing.push(...withoutWindow(`antigravity/${name}`, meters));
    }
  }
  return missing;
}

describe("every meter that resets has a window length", () => {
  let sim: ProviderSimulator;
  const missing = new Map<string, Missing[]>();
  /** Providers that answered with usage in some scenario (a provider that never did was not checked). */
  const answered = new Set<string>(["antigravity"]);

  beforeAll(async () => {
    // live dates, as `quotabar demo`: resets lie ahead, as a real answer's do
    sim = await ProviderSimulator.start({ liveDates: true });
    const upstreams = sim.providers.filter((u) => PROVIDER_IDS.includes(u.id));
    await Promise.all(
      upstreams.map(async (upstream) => {
        const found: Missing[] = [];
        for (const scenario of upstream.scenarios.filter((s) => !NO_USAGE.test(s))) {
          sim.setScenario(upstream.id, scenario);
          const home = mkdtempSync(join(tmpdir(), "quotabar-windows-"));
          try {
            await sim.seedHome(home, [upstream.id]);
            const env = { ...sim.env(), HOME: home, PATH: process.env.PATH, XDG_CONFIG_HOME: undefined, XDG_CACHE_HOME: undefined };
            const doc = await createQuotabar({ env: { ...env, QUOTABAR_SECRET_STORE: "memory" } }).usage({
              providers: [upstream.id],
              timeoutMs: 10_000,
            });
            for (const p of doc.providers) {
              if (p.ok && metersOf(p).length > 0) answered.add(p.id);
              found.push(...withoutWindow(`${p.id}/${scenario}`, metersOf(p)));
            }
          } finally {
            rmSync(home, { recursive: true, force: true });
          }
        }
        sim.setScenario(upstream.id, upstream.scenarios[0] as string);
        missing.set(upstream.id, found);
      }),
    );
    missing.set("antigravity", antigravityMeters());
  }, 180_000);

  afterAll(async () => {
    await sim?.stop();
  });

  it("covers all 21 providers, each answering with meters in some scenario", () => {
    expect(PROVIDER_IDS).toHaveLength(21);
    expect([...missing.keys()].sort()).toEqual([...PROVIDER_IDS].sort());
    expect([...answered].sort()).toEqual([...PROVIDER_IDS].sort());
  });

  it.each(PROVIDER_IDS)("%s: a window for every reset, or its README says why none can be known", (id) => {
    const exempt = exemptLabels(id);
    const without = (missing.get(id) ?? []).filter((m) => !isExempt(m.label, exempt)).map((m) => `${m.where} ${m.label}`);
    expect(without, `${id}: meters with a reset and no windowMinutes (and no "${NO_WINDOW} **<label>**" in its README)`).toEqual([]);
  });

  it("keeps no stale exemption: every label a README exempts is a meter seen without a window", () => {
    for (const id of PROVIDER_IDS) {
      const seen = new Set((missing.get(id) ?? []).map((m) => m.label.toLowerCase()));
      for (const label of exemptLabels(id)) {
        const matched = label === EVERY_METER ? seen.size > 0 : seen.has(label);
        expect(matched, `${id}'s README says "${label}" has no window, but no fixture shows it so`).toBe(true);
      }
    }
  });

  it("reads the exemptions as written", () => {
    expect(exemptLabels("kiro")).toEqual(["bonus credits"]);
    expect(exemptLabels("antigravity")).toEqual([EVERY_METER]);
    expect(isExempt("Bonus credits", exemptLabels("kiro"))).toBe(true);
    expect(isExempt("Credits", exemptLabels("kiro"))).toBe(false);
  });
});
