import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerKey, timeOf } from "./log-entry.js";

describe("log entries", () => {
  it("reads a timestamp as Date.parse does, in the form logs write and in any other", () => {
    const instant = fc.integer({ min: Date.UTC(1, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) });
    fc.assert(
      fc.property(instant, (ms) => {
        const text = new Date(ms).toISOString();
        expect(timeOf(text)).toBe(Date.parse(text));
        expect(timeOf(text)).toBe(ms);
      }),
      { numRuns: 5_000 },
    );
    // with an offset east or west of UTC, as some writers put it
    const offset = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 });
    fc.assert(
      // a day inside the years 0001-9999 both ways, so the local time is written with four digits too
      fc.property(fc.integer({ min: Date.UTC(1, 0, 2), max: Date.UTC(9999, 11, 30) }), offset, (ms, minutes) => {
        const local = new Date(ms + minutes * 60_000).toISOString().slice(0, 23);
        const zone = `${minutes < 0 ? "-" : "+"}${String(Math.trunc(Math.abs(minutes) / 60)).padStart(2, "0")}:${String(Math.abs(minutes) % 60).padStart(2, "0")}`;
        expect(timeOf(local + zone)).toBe(Date.parse(local + zone));
        expect(timeOf(local + zone)).toBe(ms);
      }),
      { numRuns: 5_000 },
    );
    // near misses: what is not a real time stays NaN (or what Date.parse makes of it)
    const odd = fc.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|[+-]\d{2}:\d{2})$/);
    fc.assert(
      fc.property(odd, (text) => {
        expect(Object.is(timeOf(text), Date.parse(text))).toBe(true);
      }),
      { numRuns: 5_000 },
    );
    for (const text of [
      "2026-02-30T00:00:00.000Z",
      "2024-02-29T00:00:00.000Z",
      "2100-02-29T00:00:00.000Z",
      "2000-02-29T00:00:00.000Z",
      "2026-04-31T00:00:00.000Z",
      "2026-01-31T23:59:59.999-23:59",
      "2026-01-01T00:00:00.000+24:00",
      "2026-01-01T00:00:00.000+01:60",
      "2026-01-01T00:00:00.000*01:00",
      "2026-13-01T00:00:00.000Z",
      "2026-01-01T24:00:00.000Z",
      "2026-01-01T00:00:00+00:00",
      "x",
      "",
    ])
      expect(Object.is(timeOf(text), Date.parse(text))).toBe(true);
  });

  it("keys an answer by both ids: another id or request is another key", () => {
    expect(answerKey("msg_1", "req_1")).toBe(answerKey("msg_1", "req_1"));
    expect(answerKey("msg_1", "req_1")).not.toBe(answerKey("msg_1", "req_2"));
    expect(answerKey("msg_1", "req_1")).not.toBe(answerKey("msg_", "1req_1"));
    expect(Number.isSafeInteger(answerKey("msg_1", "req_1"))).toBe(true);
  });
});
