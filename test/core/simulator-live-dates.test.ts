import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SimulatedUpstream } from "../../ports/simulated-upstream.js";
import { liveDates, ProviderSimulator, shiftDates } from "../../simulator/server.js";

describe("simulator liveDates (demo and preview only)", () => {
  const now = new Date("2026-11-20T12:00:00.000Z");

  it("moves past ISO times and epoch milliseconds forward by whole days, keeping the time of day", () => {
    const out = JSON.parse(liveDates(JSON.stringify({ a: "2026-03-10T16:41:07.118Z", b: 1773151200000, c: "2027-01-01T00:00:00Z" }), now));
    expect(out.a).toBe("2026-11-20T16:41:07.118Z");
    expect(new Date(out.b).toISOString()).toBe("2026-11-20T14:00:00.000Z");
    expect(out.c).toBe("2027-01-01T00:00:00Z");
  });
});

describe("simulator shiftDates (an upstream that says when it was recorded)", () => {
  const recordedAt = new Date("2026-03-10T13:30:00Z");
  const now = new Date("2026-11-23T15:45:30.400Z"); // 258 days, 2 h 15 min 30 s later (the fraction is dropped)
  const shift = (value: unknown) => JSON.parse(shiftDates(JSON.stringify(value), recordedAt, now)) as Record<string, unknown>;

  it("moves every ISO time by exactly now - recordedAt, keeping its precision and its offset", () => {
    expect(
      shift({
        reset5h: "2026-03-10T16:41:07.118273004Z",
        weekly: "2026-03-16T00:00:00Z",
        updated: "2026-03-10T09:15:00.000Z",
        offset: "2025-06-02T10:11:12-07:00",
        minutes: "2026-03-10T14:00Z",
        far: "2027-01-01T00:00:00Z",
      }),
    ).toEqual({
      reset5h: "2026-11-23T18:56:37.118273004Z",
      weekly: "2026-11-29T02:15:30Z",
      updated: "2026-11-23T11:30:30.000Z",
      offset: "2026-02-15T12:26:42-07:00",
      minutes: "2026-11-23T16:15Z",
      far: "2027-09-16T02:15:30Z",
    });
  });

  it("keeps each window's distance to now: a 5-hour reset 3 h 11 min ahead stays 3 h 11 min ahead", () => {
    const { reset } = shift({ reset: "2026-03-10T16:41:00Z" });
    expect(Date.parse(reset as string) - now.getTime()).toBe(Date.parse("2026-03-10T16:41:00Z") - recordedAt.getTime() - 400);
  });

  it("moves epoch milliseconds and seconds near the recording, and leaves other numbers alone", () => {
    const ms = Date.parse("2026-03-10T16:41:00Z");
    const others = { oldMs: 1_650_000_000_000, oldS: 1_650_000_000, big: 9_999_999_999, small: 1234567890, id: "ab1773150060000" };
    const out = shift({ ms, s: ms / 1000, ...others });
    expect(out.ms).toBe(Date.parse("2026-11-23T18:56:30Z"));
    expect(out.s).toBe(Date.parse("2026-11-23T18:56:30Z") / 1000);
    expect(out).toMatchObject(others);
  });

  it("moves a quoted day by whole calendar days, and no date inside a longer string", () => {
    const out = shift({ today: "2026-03-10", yesterday: "2026-03-09", reset: "2026-04-01", slug: "openai/gpt-4.1-2025-04-14" });
    expect(out).toEqual({ today: "2026-11-23", yesterday: "2026-11-22", reset: "2026-12-15", slug: "openai/gpt-4.1-2025-04-14" });
  });

  it("changes nothing when now is the recording moment", () => {
    const text = '{"a":"2026-03-10T16:41:07.118Z","b":1773160867118,"c":"2026-03-10"}';
    expect(shiftDates(text, recordedAt, recordedAt)).toBe(text);
  });
});

describe("ProviderSimulator with live dates", () => {
  const upstream: SimulatedUpstream = {
    id: "clockwork",
    origins: ["https://clockwork.example"],
    env: {},
    scenarios: ["ok"],
    recordedAt: "2026-03-10T12:00:00Z",
    routes: [
      { method: "GET", path: "/usage", handle: () => ({ json: { resetsAt: "2026-03-10T14:00:00Z" } }) },
      { method: "GET", path: "/older", handle: () => ({ json: { resetsAt: "2025-01-01T02:00:00Z" }, recordedAt: "2025-01-01T00:00:00Z" }) },
    ],
    async seedHome(home, _scenario, dates) {
      await writeFile(join(home, "quota.json"), dates('{"refill":"2026-03-10T18:00:00Z"}'));
    },
  };
  const hoursAhead = (iso: string, from: number) => Math.round((Date.parse(iso) - from) / 360_000) / 10;

  async function fetchFrom(liveDates: boolean) {
    const sim = await ProviderSimulator.start({ providers: [upstream], liveDates });
    const home = mkdtempSync(join(tmpdir(), "quotabar-sim-dates-"));
    try {
      const get = async (path: string) =>
        ((await (await fetch(`${sim.url}/clockwork.example${path}`)).json()) as { resetsAt: string }).resetsAt;
      await sim.seedHome(home);
      const refill = (JSON.parse(readFileSync(join(home, "quota.json"), "utf8")) as { refill: string }).refill;
      return { usage: await get("/usage"), older: await get("/older"), refill, now: Date.now() };
    } finally {
      rmSync(home, { recursive: true, force: true });
      await sim.stop();
    }
  }

  it("shifts answers and seeded files from the upstream's recordedAt, or the answer's own, to now", async () => {
    const out = await fetchFrom(true);
    expect(hoursAhead(out.usage, out.now)).toBe(2);
    expect(hoursAhead(out.older, out.now)).toBe(2);
    expect(hoursAhead(out.refill, out.now)).toBe(6);
  });

  it("serves them verbatim without live dates (the tests)", async () => {
    expect(await fetchFrom(false)).toMatchObject({
      usage: "2026-03-10T14:00:00Z",
      older: "2025-01-01T02:00:00Z",
      refill: "2026-03-10T18:00:00Z",
    });
  });
});
