import { describe, expect, it } from "vitest";
import { clamp, meter, percentOf, percentUsedFromRemaining, unlimitedMeter } from "../../domain/meter.js";
import { afterMillis, afterSeconds, fromEpoch, fromEpochMillis, fromEpochSeconds, fromIso, toTime } from "../../domain/coerce.js";
import { formatCountdown } from "../../presentation/format.js";

const now = new Date("2026-11-20T10:00:00.000Z");

describe("percent helpers", () => {
  it("converts percent remaining to percent used and clamps", () => {
    expect(percentUsedFromRemaining(62.5)).toBe(37.5);
    expect(percentUsedFromRemaining(120)).toBe(0);
    expect(percentUsedFromRemaining(-5)).toBe(100);
    expect(clamp(Number.NaN)).toBe(0);
    expect(percentOf(1, 3)).toBe(33.33);
    expect(percentOf(5, 0)).toBeNull();
  });

  it("builds meters with defaults and unlimited bars", () => {
    expect(meter("A", { usedPercent: 150 })).toMatchObject({ usedPercent: 100, used: null, unlimited: false, note: null });
    expect(unlimitedMeter("Chat")).toMatchObject({ unlimited: true, usedPercent: 0, note: "Unlimited" });
  });
});

describe("time helpers", () => {
  it("turns every upstream time shape into an absolute ISO time", () => {
    expect(fromEpochSeconds(1795521600)).toBe("2026-11-24T12:00:00.000Z");
    expect(fromEpochMillis(1795521600000)).toBe("2026-11-24T12:00:00.000Z");
    expect(fromEpoch(1795521600)).toBe(fromEpoch(1795521600000));
    expect(fromIso("2026-02-28T19:16:33.462988Z")).toBe("2026-02-28T19:16:33.462Z");
    expect(fromIso("2026-03-01T10:00:00+08:00")).toBe("2026-03-01T02:00:00.000Z");
    expect(fromIso("next week")).toBeNull();
    expect(afterSeconds(now, 3600)).toBe("2026-11-20T11:00:00.000Z");
    expect(afterMillis(now, 1500)).toBe("2026-11-20T10:00:01.500Z");
    expect(afterSeconds(now, -1)).toBeNull();
    expect(toTime("1795521600")).toBe("2026-11-24T12:00:00.000Z");
    expect(toTime(null)).toBeNull();
  });

  it("formats countdowns", () => {
    expect(formatCountdown("2026-11-24T12:30:00.000Z", now)).toBe("4d 2h");
    expect(formatCountdown("2026-11-20T12:05:00.000Z", now)).toBe("2h 05m");
    expect(formatCountdown("2026-11-20T10:12:00.000Z", now)).toBe("12m");
    expect(formatCountdown("2026-11-20T10:00:30.000Z", now)).toBe("30s");
    expect(formatCountdown("2026-11-20T09:00:00.000Z", now)).toBe("now");
  });
});

describe("times in text", () => {
  it("writes ISO times in details and notes as a person reads them", async () => {
    const { readableTimes } = await import("../../presentation/format.js");
    expect(readableTimes("Updated: 2026-11-24T09:15:00.000Z")).toBe("Updated: Nov 24, 09:15 UTC");
    expect(readableTimes("from 2026-03-01T00:00:00+00:00 to now")).toBe("from Mar 1, 00:00 UTC to now");
    expect(readableTimes("no time here, 2026-11-24 is a date")).toBe("no time here, 2026-11-24 is a date");
  });
});
