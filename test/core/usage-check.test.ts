import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileTextStore } from "../../adapters/cache/file-text-store.js";
import { LatestSnapshots } from "../../adapters/cache/latest-snapshots.js";
import { StoredSnapshotCache } from "../../adapters/cache/stored-snapshot-cache.js";
import { JsonConfigStore } from "../../adapters/config/json-config-store.js";
import { meter } from "../../domain/meter.js";
import { checkedUsage } from "../../domain/usage-check.js";
import { ProviderUsageSchema, type ProviderUsage } from "../../domain/usage-document.js";
import { accountKey } from "../../domain/account.js";

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
  2 ** 53,
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

describe("a provider's usage checked without zod (a refresh's check, the status bar's light path)", () => {
  it("accepts what the document's schema accepts, and refuses what it refuses, field by field", () => {
    expect(ProviderUsageSchema.safeParse(FULL).success).toBe(true);
    expect(checkedUsage(FULL)).toEqual(FULL);
    const disagreements: string[] = [];
    for (const [path] of paths(FULL)) {
      if (path.length === 0) continue;
      for (const wrong of WRONG) {
        const candidate = replaced(FULL, path, wrong);
        const zod = ProviderUsageSchema.safeParse(candidate);
        const checked = checkedUsage(candidate);
        if ((checked !== null) !== zod.success) disagreements.push(`${path.join(".")} = ${JSON.stringify(wrong)}: zod ${zod.success}`);
        else if (zod.success && JSON.stringify(checked) !== JSON.stringify(zod.data))
          disagreements.push(`${path.join(".")} = ${JSON.stringify(wrong)}: another answer than zod's`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it("answers with the known fields only, as zod's parse does: what else a value carries is left behind", () => {
    const extra = (value: object) => ({ ...value, token: "sk-left-behind" });
    const carrying = {
      ...extra(FULL),
      primary: extra({ ...FULL.primary, pace: extra(FULL.primary?.pace as object) }),
      details: [extra(FULL.details[0] as object)],
      status: extra({ ...FULL.status, incidents: [extra(FULL.status?.incidents[0] as object)] }),
      error: extra({ code: "network", message: "reset", hint: null }),
    };
    const checked = checkedUsage(carrying);
    expect(JSON.stringify(checked)).not.toContain("sk-left-behind");
    expect(checked).toEqual(ProviderUsageSchema.parse(carrying));
    // a meter without a pace keeps none, as the schema's
    expect(Object.keys(checkedUsage(FULL)?.secondary ?? {})).toEqual(Object.keys(ProviderUsageSchema.parse(FULL).secondary ?? {}));
  });

  it("refuses what is not an object", () => {
    for (const value of [null, "zai", 3, [FULL]]) expect(checkedUsage(value)).toBeNull();
  });
});

describe("LatestSnapshots: the last answer under this origin map, whichever credential fetched it", () => {
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), "qb-latest-"));
    return { dir, store: new FileTextStore(dir) };
  };

  it("reads a snapshot written with a credential, without it; another origin map (a demo's) reads as none", async () => {
    const { store } = fresh();
    const simulated = '{"https://api.z.ai":"http://127.0.0.1:1"}';
    await new StoredSnapshotCache(store, "").write(FULL, ["sk-zai-secret"]);
    expect(await new LatestSnapshots(store, "").latest(accountKey("zai"))).toEqual({ usage: FULL, at: new Date(FULL.fetchedAt as string) });
    expect(await new LatestSnapshots(store, simulated).latest(accountKey("zai"))).toBeNull();
    expect(await new LatestSnapshots(store, "").latest(accountKey("warp"))).toBeNull();
    await new StoredSnapshotCache(store, simulated).write(FULL, ["sk-zai-secret"]);
    expect(await new LatestSnapshots(store, simulated).latest(accountKey("zai"))).not.toBeNull();
    expect(await new LatestSnapshots(store, simulated.replace("1", "2")).latest(accountKey("zai"))).toBeNull();
    expect(await new LatestSnapshots(store, "").latest(accountKey("zai"))).toBeNull();
  });

  it("a noted failure is newer than the snapshot until a fresh snapshot is written; cache clear (remove) forgets both", async () => {
    const { store } = fresh();
    const cache = new StoredSnapshotCache(store, "");
    const latest = new LatestSnapshots(store, "");
    await cache.write(FULL, ["k"]);
    const failed: ProviderUsage = { ...FULL, ok: false, stale: true, error: { code: "network", message: "reset", hint: null } };
    await latest.noteFailure(failed, new Date("2026-11-26T18:05:00Z"));
    expect(await latest.latest(accountKey("zai"))).toEqual({ usage: failed, at: new Date("2026-11-26T18:05:00Z") });
    await cache.write({ ...FULL, fetchedAt: "2026-11-26T18:10:00.000Z" }, ["k"]);
    expect((await latest.latest(accountKey("zai")))?.usage.ok).toBe(true);
    await latest.noteFailure(failed, new Date("2026-11-26T18:15:00Z"));
    await cache.remove(accountKey("zai"));
    expect(await latest.latest(accountKey("zai"))).toBeNull();
  });

  it("a damaged or hand-edited entry reads as none, never as wrong numbers", async () => {
    const { dir, store } = fresh();
    const cache = new LatestSnapshots(store, "");
    await new StoredSnapshotCache(store, "").write(FULL, ["k"]);
    const file = join(dir, "snapshots", "zai.json");
    const entry = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...entry, usage: { ...entry.usage, primary: { ...entry.usage.primary, usedPercent: 181 } } }));
    expect(await cache.latest(accountKey("zai"))).toBeNull();
    writeFileSync(file, "{");
    expect(await cache.latest(accountKey("zai"))).toBeNull();
    // an entry written before origin maps were named reads as none too (the bar refreshes it)
    writeFileSync(file, JSON.stringify({ scope: entry.scope, usage: entry.usage }));
    expect(await cache.latest(accountKey("zai"))).toBeNull();
  });
});

describe("blocking reads (FileTextStore and JsonConfigStore with syncReads, for a status bar's poll)", () => {
  it("read what the asynchronous reads read, and refuse what they refuse: a device, a directory, a missing file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "qb-sync-"));
    mkdirSync(join(dir, "snapshots"));
    writeFileSync(join(dir, "snapshots", "zai.json"), JSON.stringify({ usage: FULL }));
    symlinkSync("/dev/zero", join(dir, "snapshots", "warp.json"));
    mkdirSync(join(dir, "snapshots", "kimi.json"));
    const [blocking, waiting] = [new FileTextStore(dir, () => undefined, { syncReads: true }), new FileTextStore(dir)];
    for (const key of ["snapshots/zai", "snapshots/warp", "snapshots/kimi", "snapshots/amp"]) {
      expect(await blocking.read(key), key).toBe(await waiting.read(key));
    }
    expect(JSON.parse((await blocking.read("snapshots/zai")) as string).usage).toEqual(FULL);
    expect(await blocking.read("snapshots/warp")).toBeNull();
  });

  it("a config file read with blocking calls is checked as ever; a device is a config error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "qb-sync-config-"));
    writeFileSync(join(dir, "config.json"), JSON.stringify({ version: 1, providers: [{ id: "zai" }], notify: { thresholds: [50, 90] } }));
    const config = await new JsonConfigStore(join(dir, "config.json"), { syncReads: true }).load();
    expect(config.notify).toEqual({ thresholds: [50, 90] });
    expect(await new JsonConfigStore(join(dir, "none.json"), { syncReads: true }).load()).toEqual({ version: 1, providers: [] });
    await expect(new JsonConfigStore("/dev/zero", { syncReads: true }).load()).rejects.toThrow(/not a regular file/);
    writeFileSync(join(dir, "bad.json"), '{"providers": 3}');
    await expect(new JsonConfigStore(join(dir, "bad.json"), { syncReads: true }).load()).rejects.toThrow(/providers/);
  });
});
