import { describe, expect, it } from "vitest";
import { style } from "../../oclif-cli/render/style.js";
import { renderHistoryText } from "../../oclif-cli/render/history-text.js";
import { parseSince } from "../../oclif-cli/commands/history.js";
import type { HistoryPoint, MeterHistory } from "../../ports/usage-history.js";
import { currentWindow, dailyPeaks, lastDays, overTime, sparkline } from "../../presentation/history.js";

const NOW = new Date("2026-11-26T18:00:00.000Z");
const HOUR = 3_600_000;
const point = (hoursAgo: number, usedPercent: number | null, segment = 1, resetsAt = "2026-11-26T20:00:00.000Z"): HistoryPoint => ({
  at: new Date(NOW.getTime() - hoursAgo * HOUR).toISOString(),
  usedPercent,
  used: null,
  limit: null,
  resetsAt,
  segment,
});

describe("history for people", () => {
  it("draws 0 to 100 % as eight blocks, a gap as a space", () => {
    expect(sparkline([0, 12.5, 49, 50, 99, 100, null, -3, 130])).toBe("▁▂▄▅██ ▁█");
  });

  it("spreads readings over time: each slice's highest, the last one held between readings, nothing before the first", () => {
    const points = [point(2, 10), point(1.9, 30), point(1, 40)];
    // four slices of the last 4 hours: -4h to -3h, to -2h (a reading on its end), to -1h (two), to now (none: 40 % held)
    expect(overTime(points, NOW.getTime() - 4 * HOUR, NOW.getTime(), 4)).toEqual([null, 10, 40, 40]);
    expect(overTime([point(1, null)], NOW.getTime() - HOUR, NOW.getTime(), 2)).toEqual([null, null]);
  });

  it("takes the latest window's readings and each UTC day's peak", () => {
    const meter: MeterHistory = {
      meter: "primary",
      label: "Tokens",
      unit: null,
      windowMinutes: 300,
      points: [point(50, 90, 0, "2026-11-24T20:00:00.000Z"), point(49, 95, 0, "2026-11-24T20:00:00.000Z"), point(3, 5), point(1, 40)],
    };
    expect(currentWindow(meter).map((p) => p.usedPercent)).toEqual([5, 40]);
    const peaks = dailyPeaks(meter.points);
    expect(peaks).toEqual([
      { day: "2026-11-24", peak: 95 },
      { day: "2026-11-26", peak: 40 },
    ]);
    expect(lastDays(peaks, NOW, 3)).toEqual([95, null, 40]);
  });

  it("writes one line per meter: its window, its last percent, its daily peaks", () => {
    const tokens: MeterHistory = {
      meter: "primary",
      label: "Tokens",
      unit: null,
      windowMinutes: 300,
      points: [point(49, 95, 0, "2026-11-24T20:00:00.000Z"), point(2.5, 10), point(1.5, 30), point(0, 62)],
    };
    const credits: MeterHistory = { meter: "secondary", label: "Credits", unit: "USD", windowMinutes: null, points: [point(0, null)] };
    const text = renderHistoryText(
      [{ provider: "zai", account: null, meters: [tokens, credits] }],
      (id) => (id === "zai" ? "z.ai" : id),
      style(false),
      NOW,
    );
    expect(text.split("\n")).toEqual([
      "z.ai",
      // the window from 15:00 (20:00 less 5 hours) to now: nothing before the first reading at 15:30, each level held till the next
      "  Tokens      ▁▁▁▁▁▁▁▁▃▃▃▃▃▃▃▃▃▃▃▃▅   62% · daily peaks █ ▅  highest 95% on Nov 24",
      "  Credits  1 readings, none with a percent",
    ]);
    expect(renderHistoryText([], (id) => id, style(false), NOW)).toMatch(/^No readings kept yet/);
  });

  it("reads --since as a UTC day or an ISO time, and refuses anything else", () => {
    expect(parseSince("2026-11-20").toISOString()).toBe("2026-11-20T00:00:00.000Z");
    expect(parseSince(" 2026-11-20T10:30:00+02:00 ").toISOString()).toBe("2026-11-20T08:30:00.000Z");
    for (const bad of ["yesterday", "2026-11-20T10:30", "2026-13-45", ""]) expect(() => parseSince(bad)).toThrow(/--since must be a date/);
  });
});
