import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileTextStore } from "../../adapters/cache/file-text-store.js";
import { keptUsage } from "../../adapters/cache/kept-usage.js";
import { StoredSnapshotCache } from "../../adapters/cache/stored-snapshot-cache.js";
import { meter } from "../../domain/meter.js";
import { ProviderUsageSchema, type ProviderUsage } from "../../domain/usage-document.js";

/** A snapshot with every field the schema knows filled: meters (one paced), details, a status page with an incident. */
const FULL: ProviderUsage = {
  id: "zai",
  name: "z.ai",
  ok: true,
  source: "api",
  plan: "Pro",
  primary: {
    ...meter("Tokens", { usedPercent: 81, used: 64_800_000, limit: 80_000_000, unit: "tokens", resetsAt: "2026-11-26T20:00:00.000Z" }),
    windowMinutes: 300,
    pace: { expectedPercent: 60, deltaPercent: 21, runsOutAt: "2026-11-26T18:40:00.000Z", lastsToReset: false, basis: "window" },
  },
  secondary: meter("Weekly", { usedPercent: 31, note: "since Monday" }),
  tertiary: null,
  details: [{ label: "MCP calls", value: "12 / 1,000" }],
  status: {
    indicator: "minor",
    description: "Partially Degraded Service",
    url: "https://status.z.ai",
    incidents: [{ name: "Slow responses", impact: "minor", url: null, updatedAt: "2026-11-26T17:00:00+01:00" }],
  },
  fetchedAt: "2026-11-26T17:58:00.000Z",
  stale: false,
  error: null,
};

/** Every field path of a value, with the value there. */
function paths(value: unknown, at: (string | number)[] = []): [(string | number)[], unknown][] {
  if (value === null || typeof value !== "object") return [[at, value]];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [[at, value], ...entries.flatMap(([k, v]) => paths(v, [...at, k]))];
}

function replaced(value: unknown, path: (string | number)[], next: unknown): unknown {
  if (path.length === 0) return next;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  copy[head] = replaced(copy[head], rest, next);
  return copy;
}

// wrong (or borderline) values of every kind: types, ranges, times a little off ISO 8601
const WRONG = [
  undefined,
  null,
  "",
  "x",
  -1,
  101,
  1.5,
  NaN,
  Infinity,
  true,
  [],
  {},
  "2026-13-45T99:00:00Z",
  "2026-11-26T20:00Z",
  "2026-11-26T20:00:00+0100",
  "2026-11-26 20:00:00Z",
  "not a time",
];

describe("a kept snapshot read without zod (the status bar's light path)", () => {
  it("accepts what the document's schema accepts, and refuses what it refuses, field by field", () => {
    expect(ProviderUsageSchema.safeParse(FULL).success).toBe(true);
    expect(keptUsage(FULL)).toBe(FULL);
    const disagreements: string[] = [];
    for (const [path] of paths(FULL)) {
      if (path.length === 0) continue;
      for (const wrong of WRONG) {
        const candidate = replaced(FULL, path, wrong);
        const zod = ProviderUsageSchema.safeParse(candidate).success;
        if ((keptUsage(candidate) !== null) !== zod) disagreements.push(`${path.join(".")} = ${JSON.stringify(wrong)}: zod ${zod}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it("refuses what is not an object", () => {
    for (const value of [null, "zai", 3, [FULL]]) expect(keptUsage(value)).toBeNull();
  });
});

describe("StoredSnapshotCache.latest: the last answer under this origin map, whichever credential fetched it", () => {
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), "qb-latest-"));
    return { dir, store: new FileTextStore(dir) };
  };

  it("reads a snapshot written with a credential, without it; another origin map (a demo's) reads as none", async () => {
    const { store } = fresh();
    await new StoredSnapshotCache(store, "").write(FULL, ["sk-zai-secret"]);
    expect(await new StoredSnapshotCache(store, "").latest("zai")).toEqual({ usage: FULL, at: new Date(FULL.fetchedAt as string) });
    expect(await new StoredSnapshotCache(store, '{"https://api.z.ai":"http://127.0.0.1:1"}').latest("zai")).toBeNull();
    expect(await new StoredSnapshotCache(store, "").latest("warp")).toBeNull();
  });

  it("a noted failure is newer than the snapshot until a fresh snapshot is written; cache clear (remove) forgets both", async () => {
    const { store } = fresh();
    const cache = new StoredSnapshotCache(store, "");
    await cache.write(FULL, ["k"]);
    const failed: ProviderUsage = { ...FULL, ok: false, stale: true, error: { code: "network", message: "reset", hint: null } };
    await cache.noteFailure(failed, new Date("2026-11-26T18:05:00Z"));
    expect(await cache.latest("zai")).toEqual({ usage: failed, at: new Date("2026-11-26T18:05:00Z") });
    await cache.write({ ...FULL, fetchedAt: "2026-11-26T18:10:00.000Z" }, ["k"]);
    expect((await cache.latest("zai"))?.usage.ok).toBe(true);
    await cache.noteFailure(failed, new Date("2026-11-26T18:15:00Z"));
    await cache.remove("zai");
    expect(await cache.latest("zai")).toBeNull();
  });

  it("a damaged or hand-edited entry reads as none, never as wrong numbers", async () => {
    const { dir, store } = fresh();
    const cache = new StoredSnapshotCache(store, "");
    await cache.write(FULL, ["k"]);
    const file = join(dir, "snapshots", "zai.json");
    const entry = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...entry, usage: { ...entry.usage, primary: { ...entry.usage.primary, usedPercent: 181 } } }));
    expect(await cache.latest("zai")).toBeNull();
    writeFileSync(file, "{");
    expect(await cache.latest("zai")).toBeNull();
    // an entry written before origins were recorded reads as none too (the bar refreshes it)
    writeFileSync(file, JSON.stringify({ scope: entry.scope, usage: entry.usage }));
    expect(await cache.latest("zai")).toBeNull();
  });
});
