import { describe, expect, it } from "vitest";
import { meter } from "../../domain/meter.js";
import { sameWindow, windowOf } from "../../domain/meter-window.js";
import { basis, deltaPercent, expectedPercent, lastsToReset, paceOf, runsOutAt } from "../../domain/pace.js";
import type { HistoryPoint } from "../../ports/usage-history.js";

/** The fake clock: every test reads the meter at this instant. */
const NOW = new Date("2026-11-26T18:00:00.000Z");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs).toISOString();

/** A 5-hour meter that resets `resetsIn` from NOW. */
const fiveHour = (usedPercent: number | null, resetsIn = 2 * HOUR, fields: Parameters<typeof meter>[1] = {}) =>
  meter("Tokens", { usedPercent, resetsAt: at(resetsIn), windowMinutes: 300, ...fields });

const point = (offsetMs: number, usedPercent: number, resetsAt = at(2 * HOUR)): HistoryPoint => ({
  at: at(offsetMs),
  usedPercent,
  used: null,
  limit: null,
  resetsAt,
  segment: 0,
});

describe("pace on the window's average", () => {
  it("is 60 % expected when a 5-hour window resets in 2 hours; 40 % used is 20 in reserve and lasts", () => {
    const m = fiveHour(40);
    expect(paceOf(m, NOW)).toEqual({ expectedPercent: 60, deltaPercent: -20, runsOutAt: null, lastsToReset: true, basis: "window" });
    expect([expectedPercent(m, NOW), deltaPercent(m, NOW), runsOutAt(m, NOW), lastsToReset(m, NOW), basis(m, NOW)]).toEqual([
      60,
      -20,
      null,
      true,
      "window",
    ]);
  });

  it("forecasts the run-out when the average rate reaches 100 % before the reset", () => {
    // 80 % in 3 hours: 100 % after 3h 45m, 45 minutes from now, 1h 15m before the reset
    const m = fiveHour(80);
    expect(paceOf(m, NOW)).toEqual({
      expectedPercent: 60,
      deltaPercent: 20,
      runsOutAt: at(45 * MINUTE),
      lastsToReset: false,
      basis: "window",
    });
  });

  it("rounds to one decimal, keeps used − expected consistent, and never writes -0", () => {
    // 1h 40m of 5h gone: 33.33...%
    const m = fiveHour(33.3, 3 * HOUR + 20 * MINUTE);
    expect(expectedPercent(m, NOW)).toBe(33.3);
    expect(deltaPercent(m, NOW)).toBe(0);
    expect(Object.is(deltaPercent(m, NOW), -0)).toBe(false);
    const n = fiveHour(50, 3 * HOUR + 20 * MINUTE);
    expect(paceOf(n, NOW)).toMatchObject({ expectedPercent: 33.3, deltaPercent: 16.7 });
  });

  it("states the forecast to the second, and none when it falls exactly on the reset", () => {
    // 50 % in 2h 30m of a 5h window: exactly 100 % at the reset
    expect(paceOf(fiveHour(50, 2.5 * HOUR), NOW)).toMatchObject({ runsOutAt: null, lastsToReset: true });
    // 60 % in 3h less 7s: 100 % at 4h 59m 48.3s into the window, floored to 4h 59m 48s
    const m = meter("Tokens", { usedPercent: 60, resetsAt: at(2 * HOUR + 7_000), windowMinutes: 300 });
    expect(runsOutAt(m, NOW)).toBe(at(2 * HOUR - 5_000));
  });

  it("lasts to the reset when nothing was used, and still has a pace one step short of full", () => {
    expect(paceOf(fiveHour(0), NOW)).toEqual({
      expectedPercent: 60,
      deltaPercent: -60,
      runsOutAt: null,
      lastsToReset: true,
      basis: "window",
    });
    expect(paceOf(fiveHour(99.99), NOW)).toMatchObject({ lastsToReset: false, runsOutAt: at(1_000) });
  });

  it("works for a month as for five hours", () => {
    const monthly = meter("Monthly credits", { usedPercent: 10, resetsAt: at(15 * 24 * HOUR), windowMinutes: 30 * 24 * 60 });
    expect(paceOf(monthly, NOW)).toEqual({ expectedPercent: 50, deltaPercent: -40, runsOutAt: null, lastsToReset: true, basis: "window" });
  });
});

describe("no pace", () => {
  it("for an unlimited meter, one without a ratio, a full one, or one without a reset time or a window length", () => {
    const none = [
      fiveHour(40, 2 * HOUR, { unlimited: true }),
      fiveHour(null),
      fiveHour(100),
      meter("Tokens", { usedPercent: 40, windowMinutes: 300 }),
      meter("Tokens", { usedPercent: 40, resetsAt: at(2 * HOUR) }),
      meter("Tokens", { usedPercent: 40, resetsAt: at(2 * HOUR), windowMinutes: 0 }),
    ];
    for (const m of none) {
      expect(paceOf(m, NOW)).toBeNull();
      expect([expectedPercent(m, NOW), deltaPercent(m, NOW), runsOutAt(m, NOW), lastsToReset(m, NOW), basis(m, NOW)]).toEqual([
        null,
        null,
        null,
        null,
        null,
      ]);
    }
  });

  it("right after a reset: the first 5 % of the window (15 minutes of 5 hours) is too early to tell", () => {
    expect(paceOf(fiveHour(3, 5 * HOUR), NOW)).toBeNull();
    expect(paceOf(fiveHour(3, 5 * HOUR - 14 * MINUTE), NOW)).toBeNull();
    expect(paceOf(fiveHour(3, 5 * HOUR - 15 * MINUTE), NOW)).toMatchObject({ expectedPercent: 5, deltaPercent: -2 });
    // a month's window needs an hour, not a day and a half
    const monthly = (resetsIn: number) => meter("Monthly", { usedPercent: 1, resetsAt: at(resetsIn), windowMinutes: 43_200 });
    expect(paceOf(monthly(30 * 24 * HOUR - 59 * MINUTE), NOW)).toBeNull();
    expect(paceOf(monthly(30 * 24 * HOUR - HOUR), NOW)).not.toBeNull();
  });

  it("when the clocks disagree: a reset further away than the window is long, or already past", () => {
    // the upstream's clock (or ours) is off by a few minutes: the window has not started here yet
    expect(paceOf(fiveHour(10, 5 * HOUR + 3 * MINUTE), NOW)).toBeNull();
    expect(paceOf(fiveHour(10, 50 * HOUR), NOW)).toBeNull();
    // the reset time has passed here: the numbers belong to a window that is over
    expect(paceOf(fiveHour(90, 0), NOW)).toBeNull();
    expect(paceOf(fiveHour(90, -MINUTE), NOW)).toBeNull();
    expect(paceOf(fiveHour(90, -6 * HOUR), NOW)).toBeNull();
  });
});

describe("pace from the kept readings", () => {
  it("takes the recent rate after a burst: 61 % used in 3 hours, flat for the last hour, lasts to the reset", () => {
    const m = fiveHour(61);
    const history = [point(-3 * HOUR + 20 * MINUTE, 55), point(-HOUR, 60), point(-40 * MINUTE, 60), point(-20 * MINUTE, 61), point(0, 61)];
    // the window's average says 100 % at 4h 55m, before the reset
    expect(paceOf(m, NOW)).toMatchObject({ basis: "window", lastsToReset: false });
    expect(paceOf(m, NOW, history)).toEqual({
      expectedPercent: 60,
      deltaPercent: 1,
      runsOutAt: null,
      lastsToReset: true,
      basis: "history",
    });
    expect(basis(m, NOW, history)).toBe("history");
  });

  it("forecasts from the recent rate: +10 points in the last hour from 50 % runs out in 5 hours, after the reset; +30 runs out in 40 minutes", () => {
    const slow = [point(-HOUR, 40), point(-30 * MINUTE, 45), point(0, 50)];
    expect(paceOf(fiveHour(50), NOW, slow)).toMatchObject({ basis: "history", lastsToReset: true, runsOutAt: null });
    const fast = [point(-HOUR, 50), point(-30 * MINUTE, 65), point(0, 80)];
    expect(paceOf(fiveHour(80), NOW, fast)).toMatchObject({ basis: "history", lastsToReset: false, runsOutAt: at(40 * MINUTE) });
  });

  it("needs three readings of this window spanning half an hour of the last hour, else the window's average", () => {
    const m = fiveHour(80);
    const cases: HistoryPoint[][] = [
      [point(-HOUR, 50), point(0, 80)], // two readings
      [point(-20 * MINUTE, 70), point(-10 * MINUTE, 75), point(0, 80)], // twenty minutes
      [point(-2 * HOUR, 20), point(-90 * MINUTE, 30), point(0, 80)], // older than the last fifth of the window
      // another window's readings (its reset 3 hours earlier), then this window's only reading
      [point(-4 * HOUR, 10, at(-HOUR)), point(-3.5 * HOUR, 20, at(-HOUR)), point(-3.2 * HOUR, 30, at(-HOUR)), point(0, 80)],
      // readings from before this window began, or from the future
      [point(-3.5 * HOUR, 1), point(-3.2 * HOUR, 2), point(0, 80), point(HOUR, 90)],
    ];
    for (const history of cases) expect(basis(m, NOW, history)).toBe("window");
    // a reset time that drifted by a few minutes is the same window
    const drifted = [point(-HOUR, 50, at(2 * HOUR + 4 * MINUTE)), point(-30 * MINUTE, 65, at(2 * HOUR - 3 * MINUTE)), point(0, 80)];
    expect(basis(m, NOW, drifted)).toBe("history");
  });

  it("after the meter went down (the provider reset it early), only the readings since count", () => {
    const history = [point(-HOUR, 60), point(-40 * MINUTE, 70), point(-20 * MINUTE, 80), point(0, 5)];
    const m = fiveHour(5);
    // the drop leaves one reading: the window's average (5 % in 3 hours) decides, and lasts
    expect(paceOf(m, NOW, history)).toEqual({
      expectedPercent: 60,
      deltaPercent: -55,
      runsOutAt: null,
      lastsToReset: true,
      basis: "window",
    });
    // readings after the drop count again once there are enough
    const later = [...history.slice(0, 3), point(-55 * MINUTE, 2), point(-30 * MINUTE, 3), point(0, 5)].sort((a, b) =>
      a.at.localeCompare(b.at),
    );
    expect(basis(m, NOW, later)).toBe("window"); // the 80 % reading at -20m breaks the run again
    const clean = [point(-HOUR, 60), point(-50 * MINUTE, 1), point(-30 * MINUTE, 3), point(0, 5)];
    expect(paceOf(m, NOW, clean)).toMatchObject({ basis: "history", lastsToReset: true });
  });

  it("a forecast from older readings that falls in the past says: now", () => {
    // a stale snapshot: the last reading 30 minutes ago at 80 %, rising a point a minute
    const history = [point(-60 * MINUTE, 50), point(-45 * MINUTE, 65), point(-30 * MINUTE, 80)];
    expect(runsOutAt(fiveHour(80), NOW, history)).toBe(at(0));
  });
});

describe("a meter's window", () => {
  it("starts a window's length before the reset, and two reset times 10 minutes apart (or a tenth of a short window) are one window", () => {
    expect(windowOf(fiveHour(1))).toEqual({ startMs: NOW.getTime() - 3 * HOUR, endMs: NOW.getTime() + 2 * HOUR, lengthMs: 5 * HOUR });
    expect(windowOf(meter("x", { resetsAt: "not a time", windowMinutes: 5 }))).toBeNull();
    expect(sameWindow(at(0), at(10 * MINUTE), 300)).toBe(true);
    expect(sameWindow(at(0), at(10 * MINUTE + 1), 300)).toBe(false);
    expect(sameWindow(at(0), at(6 * MINUTE), 60)).toBe(true);
    expect(sameWindow(at(0), at(7 * MINUTE), 60)).toBe(false);
    expect(sameWindow(at(0), at(9 * MINUTE), null)).toBe(true);
    expect(sameWindow(null, null, null)).toBe(true);
    expect(sameWindow(at(0), null, 300)).toBe(false);
    expect(sameWindow("garbage", at(0), 300)).toBe(false);
  });
});
