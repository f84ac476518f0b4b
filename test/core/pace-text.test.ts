import { describe, expect, it } from "vitest";
import { meter } from "../../domain/meter.js";
import type { Meter, Pace, UsageDocument } from "../../domain/usage-document.js";
import { renderUsageText } from "../../oclif-cli/render/usage-text.js";
import { style } from "../../oclif-cli/render/style.js";
import { paceDeltaShort, paceDeltaText, paceText, paceTone, runOutText } from "../../presentation/pace.js";
import { providerUsage, usageDocument } from "../helpers/usage.js";

const NOW = new Date("2026-11-26T18:00:00.000Z");
const RESET = "2026-11-26T22:00:00.000Z";
const pace = (deltaPercent: number, runsOutAt: string | null = null): Pace => ({
  expectedPercent: 20,
  deltaPercent,
  runsOutAt,
  lastsToReset: runsOutAt === null,
  basis: "window",
});

describe("pace for people", () => {
  it("says how far ahead or in reserve, and whether it lasts", () => {
    expect(paceText(pace(12, "2026-11-26T19:40:00.000Z"), RESET, NOW)).toBe(
      "12% ahead of pace · runs out in 1h 40m, 2h 20m before the reset",
    );
    expect(paceText(pace(-8), RESET, NOW)).toBe("8% in reserve · lasts to the reset");
    expect([0.4, -0.49, 0.5, -7.6].map((d) => paceDeltaText(pace(d)))).toEqual(["on pace", "on pace", "1% ahead of pace", "8% in reserve"]);
    expect([11.2, -8, 0.2].map((d) => paceDeltaShort(pace(d)))).toEqual(["+11%", "\u22128%", "±0%"]);
    expect(runOutText(pace(30, "2026-11-26T18:05:00.000Z"), null, NOW)).toBe("runs out in 5m");
    expect([paceTone(pace(3, RESET)), paceTone(pace(3)), paceTone(pace(0.2)), paceTone(pace(-20))]).toEqual([
      "critical",
      "warning",
      "normal",
      "normal",
    ]);
  });
});

describe("the text view", () => {
  const doc = (primary: Meter, secondary: Meter | null = null): UsageDocument =>
    usageDocument(NOW, providerUsage({ primary, secondary, fetchedAt: NOW.toISOString() }));
  const tokens = {
    ...meter("Tokens", { usedPercent: 32, resetsAt: RESET, windowMinutes: 300 }),
    pace: pace(12, "2026-11-26T19:40:00.000Z"),
  };
  const weekly = { ...meter("Weekly tokens", { usedPercent: 12, resetsAt: RESET, windowMinutes: 10_080 }), pace: pace(-8) };

  it("writes the pace under each meter that has one, aligned with the bars", () => {
    const text = renderUsageText(doc(tokens, weekly), style(false), NOW);
    expect(text.split("\n")).toEqual([
      "z.ai",
      "  Tokens         ██████░░░░░░░░░░░░░░    32% · resets in 4h 00m",
      "                 12% ahead of pace · runs out in 1h 40m, 2h 20m before the reset",
      "  Weekly tokens  ██░░░░░░░░░░░░░░░░░░    12% · resets in 4h 00m",
      "                 8% in reserve · lasts to the reset",
    ]);
    const plain = renderUsageText(doc(meter("Credits", { usedPercent: 40 })), style(false), NOW);
    expect(plain.split("\n")).toHaveLength(2);
  });

  it("colours the delta (and a run-out red) when colour is on", () => {
    const lines = renderUsageText(doc(tokens, weekly), style(true), NOW).split("\n");
    expect(lines[2]).toBe(
      "                 \u001b[31m12% ahead of pace\u001b[39m · \u001b[31mruns out in 1h 40m, 2h 20m before the reset\u001b[39m",
    );
    expect(lines[4]).toBe("                 \u001b[32m8% in reserve\u001b[39m · lasts to the reset");
  });
});
