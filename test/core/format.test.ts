import { describe, expect, it } from "vitest";
import { formatAmount, formatDateTime, readableTimes } from "../../presentation/format.js";

describe("formatting for people, without ICU", () => {
  it("writes amounts grouped, with one decimal, and in K / M / B", () => {
    expect([1215, 112.5, 0.25, 99_999, 450_000, 23_456_789, 1_500_000_000, -1234].map(formatAmount)).toEqual([
      "1,215",
      "112.5",
      "0.3",
      "99,999",
      "450K",
      "23.5M",
      "1.5B",
      "-1,234",
    ]);
  });

  it("writes every month's short English name, in UTC", () => {
    const months = Array.from({ length: 12 }, (_, m) => formatDateTime(new Date(Date.UTC(2026, m, 1, 9, 5)).toISOString()));
    expect(months.map((text) => text.split(" ")[0])).toEqual([
      "Jan",
      "Feb",
      "Mar",
      "Apr",
      "May",
      "Jun",
      "Jul",
      "Aug",
      "Sep",
      "Oct",
      "Nov",
      "Dec",
    ]);
    expect(formatDateTime("2026-12-01T00:00:00Z")).toBe("Dec 1, 00:00 UTC");
    expect(formatDateTime("2026-11-24T10:15:00+01:00")).toBe("Nov 24, 09:15 UTC");
  });

  it("rewrites the ISO times in a text as a person reads them, and leaves the rest", () => {
    expect(readableTimes("resets 2026-12-01T00:00:00Z (window 2026-11-30)")).toBe("resets Dec 1, 00:00 UTC (window 2026-11-30)");
  });
});
