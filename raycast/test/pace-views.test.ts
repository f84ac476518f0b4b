import { describe, expect, it } from "vitest";
import { meter } from "../../domain/meter.js";
import type { QuotabarEvent } from "../../domain/usage-events.js";
import type { Meter } from "../../domain/usage-document.js";
import type { HistoryPoint, ProviderHistory } from "../../ports/usage-history.js";
import { eventToast } from "../../menubar-raycast/event-toast.js";
import { menuBarModel } from "../../menubar-raycast/menu-bar-model.js";
import { DEFAULT_TITLE, menuBarTitle, titleOptionsOf, TITLE_MODES, type TitleOptions } from "../../menubar-raycast/menu-bar-title.js";
import { FETCH_EVERY_MS, shouldFetch } from "../../menubar-raycast/refresh-policy.js";
import { historyChart } from "../shared/history-chart.js";
import { mostAtRisk, paceView } from "../shared/pace-view.js";
import { listModel } from "../src/list-model.js";
import { copilot, doc, listing, NOW, usage, warp, zaiPaced } from "./documents.js";

const tokens = zaiPaced.primary!;
const weekly = zaiPaced.secondary!;
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);
const point = (minutesFromNow: number, usedPercent: number | null, resetsAt = tokens.resetsAt, segment = 1): HistoryPoint => ({
  at: minutes(minutesFromNow).toISOString(),
  usedPercent,
  used: null,
  limit: null,
  resetsAt,
  segment,
});
const historyOf = (points: HistoryPoint[], role: "primary" | "secondary" = "primary"): ProviderHistory => ({
  provider: "zai",
  account: null,
  meters: [{ meter: role, label: "Tokens", unit: "tokens", windowMinutes: 300, points }],
});
/** The SVG inside a chart's markdown. */
const svgOf = (markdown: string) =>
  Buffer.from(/data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)\)/.exec(markdown)![1]!, "base64").toString("utf8");

describe("pace in words", () => {
  it("says how far ahead or behind, whether it lasts, and where the rate comes from", () => {
    expect(paceView(tokens, NOW)).toEqual({
      delta: "11% in reserve",
      deltaLine: "11% in reserve",
      short: "−11%",
      runOut: "lasts to the reset",
      line: "11% in reserve · lasts to the reset",
      runsOutIn: null,
      runsOutAt: null,
      tone: "normal",
      basis: "At the average rate since the window began",
    });
    expect(paceView(weekly, NOW)).toMatchObject({
      line: "10% ahead of pace · runs out in 3d 7h, 2d 4h before the reset",
      short: "+10%",
      runsOutIn: "3d 7h",
      tone: "critical",
    });
    const onPace = { ...tokens, pace: { ...tokens.pace!, deltaPercent: 0.2, basis: "history" as const } };
    expect(paceView(onPace, NOW)).toMatchObject({ deltaLine: "On pace", line: "On pace · lasts to the reset", short: "±0%" });
    expect(paceView(onPace, NOW)!.basis).toBe("At the rate of the recent readings");
    expect(paceView(copilot.primary!, NOW)).toBeNull();
  });

  it("finds the meter most at risk: the one that runs out soonest, else the one furthest ahead", () => {
    expect(mostAtRisk([tokens, weekly], (m) => m)).toBe(weekly);
    const ahead = { ...tokens, pace: { ...tokens.pace!, deltaPercent: 4 } };
    expect(mostAtRisk([tokens, ahead, copilot.primary!], (m) => m)).toBe(ahead);
    const sooner = { ...weekly, pace: { ...weekly.pace!, runsOutAt: "2026-11-21T00:00:00.000Z", deltaPercent: 1 } };
    expect(mostAtRisk([weekly, sooner], (m) => m)).toBe(sooner);
    expect(mostAtRisk([copilot.primary!, warp.primary!], (m) => m)).toBeNull();
  });
});

describe("list: pace and run-out", () => {
  const row = (history?: ProviderHistory) => listModel(doc(zaiPaced), listing(), NOW, history ? { history: [history] } : {}).enabled[0]!;

  it("puts the meter most at risk on the row: when it runs out, in red, in place of the reset countdown", () => {
    expect(row().accessories).toEqual([
      {
        text: "out in 3d 7h",
        icon: "runsOut",
        tone: "critical",
        tooltip: "Weekly tokens: 10% ahead of pace · runs out in 3d 7h, 2d 4h before the reset",
      },
      { text: "29%", tone: "normal", tooltip: "Tokens used" },
    ]);
    // without a run-out, the pace and the reset countdown
    const lasting = listModel(doc({ ...zaiPaced, secondary: null }), listing(), NOW).enabled[0]!;
    expect(lasting.accessories.slice(0, 2)).toEqual([
      {
        text: "−11%",
        icon: "pace",
        tone: "normal",
        tooltip: "Tokens: 11% in reserve · lasts to the reset",
      },
      { text: "3h 00m", icon: "clock", tooltip: "Resets Nov 20, 19:00 UTC" },
    ]);
  });

  it("writes one pace line under each meter that has a pace, and when it runs out in the metadata", () => {
    const { markdown, metadata } = row();
    expect(markdown).toContain("23.5M / 80M tokens · resets in 3h 00m\n\n11% in reserve · lasts to the reset");
    expect(markdown).toContain("125M / 400M tokens · resets in 5d 12h\n\n10% ahead of pace · runs out in 3d 7h, 2d 4h before the reset");
    expect(metadata).toContainEqual({
      kind: "label",
      title: "Weekly tokens runs out",
      text: "Nov 23, 23:12 UTC (in 3d 7h)",
      tone: "critical",
    });
    expect(metadata.filter((m) => m.kind === "label" && m.title.endsWith("runs out"))).toHaveLength(1);
    const plain = listModel(doc(copilot), listing(), NOW).enabled[0]!.markdown;
    expect(plain).not.toMatch(/pace|runs out|lasts/);
  });

  it("charts a meter's readings of its current window in place of its bar, as an SVG image", () => {
    const history = historyOf([point(-100, 10), point(-60, 18), point(-30, 24), point(-1, 29.32)]);
    const { markdown } = row(history);
    expect(markdown).toMatch(
      /### Tokens · 29% used\n\n!\[Tokens since its window began\]\(data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+\)\n\n_Dashed: on pace_\n\n23\.5M \/ 80M tokens/,
    );
    // the weekly meter has no readings kept: its bar stays
    expect(markdown).toContain("### Weekly tokens · 31% used\n\n`██████░░░░░░░░░░░░░░`");
    const svg = svgOf(markdown);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="400" height="72"/);
    expect(svg.match(/<polyline points="([^"]+)"/)![1]!.split(" ")).toHaveLength(4);
    expect(svg).toContain('stroke-dasharray="5 4"'); // the on-pace line
    expect(svg).not.toContain("#FF6363"); // nothing runs out
  });

  it("draws the forecast of a meter that runs out, and leaves out readings of another window", () => {
    const history = historyOf(
      [
        point(-3000, 60, "2026-11-19T04:00:00.000Z", 1), // last week's window
        point(-2000, 12, weekly.resetsAt, 2),
        point(-1000, 22, weekly.resetsAt, 2),
        point(-1, 31.25, weekly.resetsAt, 2),
      ],
      "secondary",
    );
    const markdown = row(history).markdown;
    expect(markdown).toContain("_Dashed: on pace · dotted: when it runs out_");
    const svg = svgOf(markdown);
    expect(svg.match(/<polyline points="([^"]+)"/)![1]!.split(" ")).toHaveLength(3);
    expect(svg).toContain('stroke="#FF6363" stroke-width="1.6" stroke-dasharray="2 3"');
  });

  it("draws no chart from fewer than two readings a pixel apart, nor for an unlimited meter", () => {
    expect(historyChart(tokens, undefined, NOW)).toBeNull();
    expect(historyChart(tokens, historyOf([point(-30, 24)]).meters[0], NOW)).toBeNull();
    expect(historyChart(tokens, historyOf([point(-30.1, 24), point(-30, 24.5)]).meters[0], NOW)).toBeNull();
    expect(historyChart(tokens, historyOf([point(-30, null), point(-10, null)]).meters[0], NOW)).toBeNull();
    const unlimited = meter("Credits", { unlimited: true, usedPercent: 0 });
    expect(historyChart(unlimited, historyOf([point(-30, 0), point(-1, 0)]).meters[0], NOW)).toBeNull();
    expect(row().markdown).not.toContain("data:image");
  });

  it("charts a meter without a window over its last readings, without an on-pace line", () => {
    const credits: Meter = meter("Credits", { usedPercent: 40 });
    const chart = historyChart(
      credits,
      historyOf([point(-9000, 5, null, 1), point(-120, 30, null, 2), point(-1, 40, null, 2)]).meters[0],
      NOW,
    )!;
    expect(chart.markdown).toMatch(/^!\[Credits, as last read\]\(data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+\)$/);
    expect(chart.svg.match(/<polyline points="([^"]+)"/)![1]!.split(" ")).toHaveLength(2);
    expect(chart.svg).not.toContain('stroke-dasharray="5 4"');
  });
});

describe("menu bar: pace under each meter", () => {
  it("adds a line under each meter that has a pace: how far ahead, and whether it lasts", () => {
    const items = menuBarModel(doc(zaiPaced), NOW).sections[0]!.items;
    expect(items.map((i) => i.title)).toEqual([
      "Tokens: 29%",
      "11% in reserve",
      "Weekly tokens: 31%",
      "10% ahead of pace",
      "Open z.ai Dashboard",
    ]);
    expect(items[1]).toEqual({
      title: "11% in reserve",
      subtitle: "lasts to the reset",
      tooltip: "At the average rate since the window began.",
      icon: { kind: "symbol", symbol: "pace", tone: "normal" },
      action: { type: "open", url: "https://z.ai/manage-apikey/subscription" },
    });
    expect(items[3]).toMatchObject({
      subtitle: "runs out in 3d 7h, 2d 4h before the reset",
      icon: { kind: "symbol", symbol: "runsOut", tone: "critical" },
    });
  });
});

describe("menu bar: the title", () => {
  const document = doc(zaiPaced, warp, copilot);
  const title = (options: Partial<TitleOptions>, at = NOW, d = document, picked = "auto") =>
    menuBarTitle(d, at, picked, { ...DEFAULT_TITLE, ...options });

  it("shows the fullest meter's percent by default, its pace in the tooltip when it has one", () => {
    expect(menuBarModel(document, NOW).title).toBe("81%");
    expect(menuBarModel(document, NOW).tooltip).toBe("Warp · Credits 81% used");
    expect(menuBarModel(doc(zaiPaced), NOW).tooltip).toBe(
      "z.ai · Weekly tokens 31% used · 10% ahead of pace · runs out in 3d 7h, 2d 4h before the reset",
    );
  });

  it("follows the meter most at risk by pace for Pace, Both and Runs Out, with the ring", () => {
    expect(title({ mode: "pace" })).toMatchObject({ text: "+10% pace", shown: "pace" });
    expect(title({ mode: "pace" }).headline?.meter.label).toBe("Weekly tokens");
    expect(title({ mode: "both" }).text).toBe("31% · +10%");
    expect(title({ mode: "runsOut" }).text).toBe("runs out in 3d 7h");
    expect(title({ mode: "reset" }).text).toBe("resets in 11d 3h");
    const model = menuBarModel(document, NOW, "auto", {}, { ...DEFAULT_TITLE, mode: "both" });
    expect(model.icon).toEqual({ progress: 0.3125, tone: "normal", incident: false });
  });

  it("is shorter when compact", () => {
    const compact = (mode: TitleOptions["mode"]) => title({ mode, compact: true }).text;
    expect(TITLE_MODES.filter((m) => m !== "rotate").map(compact)).toEqual(["81%", "+10%", "31% +10%", "11d", "out 3d"]);
    const lasting = doc({ ...zaiPaced, secondary: null });
    expect([title({ mode: "runsOut" }, NOW, lasting).text, title({ mode: "runsOut", compact: true }, NOW, lasting).text]).toEqual([
      "lasts to reset",
      "lasts",
    ]);
  });

  it("falls back to the percent when the meter has no data for the mode, and follows the picked provider", () => {
    expect(title({ mode: "pace" }, NOW, doc(warp, copilot))).toMatchObject({ text: "81%", shown: "percent" });
    expect(title({ mode: "runsOut" }, NOW, document, "warp")).toMatchObject({ text: "81%", shown: "percent" });
    expect(
      title({ mode: "reset" }, NOW, doc(usage({ id: "kimi", name: "Kimi", primary: meter("Requests", { usedPercent: 20 }) }))).text,
    ).toBe("20%");
    expect(title({ mode: "pace" }, NOW, doc())).toEqual({ text: "", shown: "pace", headline: null });
  });

  it("rotates through Percent, Pace, Reset Time and Runs Out on the clock, every N seconds, on one meter", () => {
    const at = (step: number, seconds = 60) =>
      new Date(Math.floor(NOW.getTime() / (4 * seconds * 1000)) * 4 * seconds * 1000 + step * seconds * 1000);
    const shown = [0, 1, 2, 3, 4].map((step) => title({ mode: "rotate" }, at(step)));
    expect(shown.map((t) => t.shown)).toEqual(["percent", "pace", "reset", "runsOut", "percent"]);
    expect(shown.map((t) => t.headline?.meter.label)).toEqual(Array(5).fill("Weekly tokens"));
    expect(shown[0]!.text).toBe("31%");
    expect(title({ mode: "rotate", rotateSeconds: 300 }, at(1, 300)).shown).toBe("pace");
    expect(title({ mode: "rotate", rotateSeconds: 300 }, new Date(at(1, 300).getTime() + 240_000)).shown).toBe("pace");
    // a meter without a pace has only its percent and its reset to show
    const plain = [0, 1, 2].map((step) => title({ mode: "rotate" }, at(step), doc(copilot)).text);
    expect(plain[0]).toBe("38%");
    expect(plain[1]).toMatch(/^resets in 10d \d+h$/);
    expect(plain[2]).toBe("38%");
  });

  it("reads its preferences, anything unknown as the default", () => {
    expect(titleOptionsOf({})).toEqual(DEFAULT_TITLE);
    expect(titleOptionsOf({ menuBarTitle: "rotate", menuBarRotateSeconds: "300", menuBarCompact: true })).toEqual({
      mode: "rotate",
      compact: true,
      rotateSeconds: 300,
    });
    expect(titleOptionsOf({ menuBarTitle: "fancy", menuBarRotateSeconds: "7", menuBarCompact: "yes" })).toEqual(DEFAULT_TITLE);
  });
});

describe("menu bar: events as a toast", () => {
  const at = NOW.toISOString();
  const threshold: QuotabarEvent = {
    type: "threshold",
    provider: "warp",
    account: null,
    meter: "primary",
    label: "Credits",
    threshold: 80,
    usedPercent: 81,
    resetsAt: warp.primary!.resetsAt,
    at,
  };
  const runOut: QuotabarEvent = {
    type: "runOut",
    provider: "zai",
    account: null,
    meter: "secondary",
    runsOutAt: weekly.pace!.runsOutAt!,
    resetsAt: weekly.resetsAt!,
    at,
  };

  it("tells nothing without events, one event as it is, several under the most urgent one's title", () => {
    const document = doc(zaiPaced, warp);
    expect(eventToast([], document, NOW)).toBeNull();
    expect(eventToast([threshold], document, NOW)).toEqual({
      title: "Warp · Credits at 81%",
      message: "Crossed 80%, resets in 11d 3h.",
      urgent: false,
    });
    expect(eventToast([threshold, runOut], document, NOW)).toEqual({
      title: "z.ai · Weekly tokens runs out in 3d 7h · 1 more",
      message: "At this pace it is used up 2d 4h before the reset. · Warp · Credits at 81%",
      urgent: true,
    });
  });
});

describe("refresh policy", () => {
  it("fetches on a background launch every 5 minutes (launched every minute), on a user launch when older than a minute", () => {
    const aged = (ms: number) => ({ ...doc(), generatedAt: new Date(NOW.getTime() - ms).toISOString() });
    expect(shouldFetch(undefined, NOW, true)).toBe(true);
    expect(shouldFetch(aged(60_000), NOW, true)).toBe(false);
    expect(shouldFetch(aged(4 * 60_000), NOW, true)).toBe(false);
    expect(shouldFetch(aged(FETCH_EVERY_MS - 20_000), NOW, true)).toBe(true);
    expect(shouldFetch(aged(FETCH_EVERY_MS), NOW, true)).toBe(true);
    expect(shouldFetch(aged(30_000), NOW, false)).toBe(false);
    expect(shouldFetch(aged(61_000), NOW, false)).toBe(true);
    // a document from the future (the clock went back) says nothing of its age
    expect(shouldFetch(aged(-3_600_000), NOW, true)).toBe(true);
    expect(shouldFetch(aged(-3_600_000), NOW, false)).toBe(true);
  });
});
