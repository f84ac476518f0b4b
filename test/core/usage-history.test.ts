import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { FileTextStore } from "../../adapters/cache/file-text-store.js";
import { HISTORY_LIMITS, StoredUsageHistory } from "../../adapters/cache/stored-usage-history.js";
import { meter } from "../../domain/meter.js";
import type { Meter, ProviderUsage } from "../../domain/usage-document.js";
import { providerUsage } from "../helpers/usage.js";
import { accountKey } from "../../domain/account.js";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "quotabar-history-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const START = Date.parse("2026-11-26T10:00:00.000Z");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const KEY = ["zai-key-one"];

const usage = (atMs: number, primary: Meter | null, secondary: Meter | null = null): ProviderUsage =>
  providerUsage({ primary, secondary, fetchedAt: new Date(atMs).toISOString() });
const tokens = (usedPercent: number, resetsAt = START + 5 * HOUR) =>
  meter("Tokens", {
    usedPercent,
    used: usedPercent * 10,
    limit: 1000,
    unit: "tokens",
    resetsAt: new Date(resetsAt).toISOString(),
    windowMinutes: 300,
  });

describe("the usage history (a file per provider in the cache directory)", () => {
  it("keeps each meter's readings in order, a new segment when the window changed, and skips unlimited and empty meters", async () => {
    const dir = tempDir();
    const history = new StoredUsageHistory(new FileTextStore(dir));
    await history.append(usage(START, tokens(10), meter("Chat", { unlimited: true, usedPercent: 0 })), KEY);
    await history.append(usage(START + 10 * MINUTE, tokens(20, START + 5 * HOUR + 4 * MINUTE)), KEY); // drift: same window
    await history.append(usage(START + 20 * MINUTE, meter("Weekly", {})), KEY); // no primary ratio, nothing kept
    const after = await history.append(usage(START + 30 * MINUTE, tokens(1, START + 10 * HOUR)), KEY); // reset early: a new window
    expect(after.provider).toBe("zai");
    expect(after.meters.map((m) => m.meter)).toEqual(["primary"]);
    const [primary] = after.meters;
    expect(primary).toMatchObject({ meter: "primary", label: "Tokens", unit: "tokens", windowMinutes: 300 });
    expect(primary!.points).toEqual([
      { at: "2026-11-26T10:00:00.000Z", usedPercent: 10, used: 100, limit: 1000, resetsAt: "2026-11-26T15:04:00.000Z", segment: 0 },
      { at: "2026-11-26T10:10:00.000Z", usedPercent: 20, used: 200, limit: 1000, resetsAt: "2026-11-26T15:04:00.000Z", segment: 0 },
      { at: "2026-11-26T10:30:00.000Z", usedPercent: 1, used: 10, limit: 1000, resetsAt: "2026-11-26T20:00:00.000Z", segment: 1 },
    ]);
    expect(await history.read(accountKey("zai"), KEY)).toEqual(after);
    expect(readdirSync(join(dir, "history"))).toEqual(["zai.json"]);
  });

  it("keeps a flat run as its first and last reading", async () => {
    const history = new StoredUsageHistory(new FileTextStore(tempDir()));
    for (let i = 0; i < 10; i++) await history.append(usage(START + i * MINUTE, tokens(i < 5 ? 30 : 31)), KEY);
    const points = (await history.read(accountKey("zai"))).meters[0]!.points.map((p) => [p.at.slice(11, 16), p.usedPercent]);
    expect(points).toEqual([
      ["10:00", 30],
      ["10:04", 30],
      ["10:05", 31],
      ["10:09", 31],
    ]);
  });

  it("puts a reading that arrives late in its place, and a repeated one nowhere", async () => {
    const history = new StoredUsageHistory(new FileTextStore(tempDir()));
    for (const [minute, percent] of [
      [0, 10],
      [20, 30],
      [10, 20],
      [20, 30],
    ] as const)
      await history.append(usage(START + minute * MINUTE, tokens(percent)), KEY);
    expect((await history.read(accountKey("zai"))).meters[0]!.points.map((p) => p.usedPercent)).toEqual([10, 20, 30]);
  });

  it("is bounded by count and by age (35 days)", async () => {
    const history = new StoredUsageHistory(new FileTextStore(tempDir()), "", { ...HISTORY_LIMITS, pointsPerMeter: 5 });
    for (let i = 0; i < 8; i++) await history.append(usage(START + i * MINUTE, tokens(i)), KEY);
    expect((await history.read(accountKey("zai"))).meters[0]!.points.map((p) => p.usedPercent)).toEqual([3, 4, 5, 6, 7]);
    // 36 days later: the old readings are dropped, the window's numbering goes on
    const later = await history.append(usage(START + 36 * 24 * HOUR, tokens(50, START + 36 * 24 * HOUR + HOUR)), KEY);
    expect(later.meters[0]!.points).toEqual([expect.objectContaining({ usedPercent: 50, segment: 1 })]);
  });

  it("stays under ~100 KB per provider with 2,000 readings of three meters, dropping the oldest", async () => {
    const dir = tempDir();
    const history = new StoredUsageHistory(new FileTextStore(dir));
    const store = new FileTextStore(dir);
    // written in one go (2,000 appends would take a while): the bound applies on the next append
    const points = Array.from({ length: 2_000 }, (_, i) => [Math.round((START + i * MINUTE) / 1000), (i % 997) / 10, i * 13.7, 100_000]);
    const segment = { n: 0, resetsAt: new Date(START + 40 * 24 * HOUR).toISOString(), points };
    const m = { label: "Tokens", unit: "tokens", windowMinutes: 300, segments: [segment] };
    await history.append(usage(START, tokens(1)), KEY); // learns the scope
    const scoped = JSON.parse((await store.read("history/zai"))!);
    await store.write("history/zai", JSON.stringify({ ...scoped, meters: { primary: m, secondary: m, tertiary: m } }));
    const weekly = meter("Weekly", { usedPercent: 5, resetsAt: segment.resetsAt, windowMinutes: 10_080 });
    const after = await history.append(usage(START + 2_000 * MINUTE, weekly, weekly), KEY);
    const size = statSync(join(dir, "history", "zai.json")).size;
    expect(size).toBeLessThanOrEqual(HISTORY_LIMITS.maxBytes);
    expect(size).toBeGreaterThan(HISTORY_LIMITS.maxBytes * 0.8);
    for (const kept of after.meters) {
      expect(kept.points.length).toBeGreaterThan(500);
      expect(kept.points.at(-1)!.at).toBe(new Date(START + (kept.meter === "tertiary" ? 1_999 : 2_000) * MINUTE).toISOString());
    }
  });

  it("belongs to the credential and origin map it was read with; a damaged file starts afresh", async () => {
    const dir = tempDir();
    const history = new StoredUsageHistory(new FileTextStore(dir));
    await history.append(usage(START, tokens(10)), KEY);
    expect((await history.read(accountKey("zai"), ["another-key"])).meters).toEqual([]);
    expect((await history.read(accountKey("zai"))).meters).toHaveLength(1);
    // the simulator's origin map: none of the real numbers
    expect(
      (await new StoredUsageHistory(new FileTextStore(dir), '{"https://api.z.ai":"http://127.0.0.1:1"}').read(accountKey("zai"))).meters,
    ).toEqual([]);
    // another key's reading replaces the history
    const other = await history.append(usage(START + MINUTE, tokens(70)), ["another-key"]);
    expect(other.meters[0]!.points.map((p) => p.usedPercent)).toEqual([70]);
    expect(readFileSync(join(dir, "history", "zai.json"), "utf8")).not.toContain("another-key");
    for (const damage of ["{", '{"v":1,"scope":"x","origins":"y","meters":{"primary":{"label":1}}}', "[]"]) {
      writeFileSync(join(dir, "history", "zai.json"), damage);
      expect((await history.read(accountKey("zai"))).meters).toEqual([]);
      expect((await history.append(usage(START + 2 * MINUTE, tokens(5)), KEY)).meters[0]!.points).toHaveLength(1);
    }
    await history.remove(accountKey("zai"));
    expect(existsSync(join(dir, "history", "zai.json"))).toBe(false);
  });

  it("loses no reading when two stores append at once", async () => {
    const dir = tempDir();
    const stores = [new StoredUsageHistory(new FileTextStore(dir)), new StoredUsageHistory(new FileTextStore(dir))];
    await Promise.all(Array.from({ length: 40 }, (_, i) => stores[i % 2]!.append(usage(START + i * MINUTE, tokens(i)), KEY)));
    const points = (await stores[0]!.read(accountKey("zai"))).meters[0]!.points;
    expect(points.map((p) => p.usedPercent)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(existsSync(join(dir, "history", "zai.json.lock"))).toBe(false);
  });

  it("loses no reading when processes append at once, and recovers a lock left by a writer that died", async () => {
    const dir = tempDir();
    // a lock file from a crashed writer, old enough to be taken as stale
    const lock = join(dir, "history", "zai.json.lock");
    await new StoredUsageHistory(new FileTextStore(dir)).append(usage(START - HOUR, tokens(0, START - HOUR + 5 * HOUR)), KEY);
    writeFileSync(lock, "");
    utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const script = join(dir, "writer.mjs");
    await esbuild.build({
      stdin: {
        contents: `
          import { FileTextStore } from "./adapters/cache/file-text-store.ts";
          import { StoredUsageHistory } from "./adapters/cache/stored-usage-history.ts";
          const [dir, first, count] = process.argv.slice(2);
          const history = new StoredUsageHistory(new FileTextStore(dir));
          for (let i = Number(first); i < Number(first) + Number(count); i++) {
            const resetsAt = new Date(${START} + 5 * 3_600_000).toISOString();
            const primary = { label: "Tokens", usedPercent: i / 10, used: i, limit: 1000, unit: "tokens", unlimited: false, resetsAt, windowMinutes: 300, note: null };
            await history.append({ id: "zai", name: "z.ai", ok: true, source: "api", plan: null, primary, secondary: null, tertiary: null,
              details: [], status: null, fetchedAt: new Date(${START} + i * 1000).toISOString(), stale: false, error: null }, ${JSON.stringify(KEY)});
          }`,
        resolveDir: join(import.meta.dirname, "..", ".."),
        loader: "ts",
      },
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: script,
      logLevel: "silent",
    });
    const writers = [0, 1, 2, 3].map(
      (w) =>
        new Promise<number | null>((resolve, reject) => {
          const child = spawn(process.execPath, [script, dir, String(w * 25), "25"], { stdio: "inherit" });
          child.on("error", reject);
          child.on("close", resolve);
        }),
    );
    expect(await Promise.all(writers)).toEqual([0, 0, 0, 0]);
    const points = (await new StoredUsageHistory(new FileTextStore(dir)).read(accountKey("zai"), KEY)).meters[0]!.points;
    // the crashed writer's window, then every reading of the four processes, in time order
    expect(points.map((p) => p.used)).toEqual([0, ...Array.from({ length: 100 }, (_, i) => i)]);
    expect(points.map((p) => p.segment)).toEqual([0, ...Array.from({ length: 100 }, () => 1)]);
    expect(existsSync(lock)).toBe(false);
  }, 60_000);
});
