import { describe, expect, it } from "vitest";
import { liveDates } from "../../simulator/server.js";

describe("simulator liveDates (demo and preview only)", () => {
  const now = new Date("2026-11-20T12:00:00.000Z");

  it("moves past ISO times and epoch milliseconds forward by whole days, keeping the time of day", () => {
    const out = JSON.parse(liveDates(JSON.stringify({ a: "2026-03-10T16:41:07.118Z", b: 1773151200000, c: "2027-01-01T00:00:00Z" }), now));
    expect(out.a).toBe("2026-11-20T16:41:07.118Z");
    expect(new Date(out.b).toISOString()).toBe("2026-11-20T14:00:00.000Z");
    expect(out.c).toBe("2027-01-01T00:00:00Z");
  });
});
