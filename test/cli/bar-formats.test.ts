import { describe, expect, it } from "vitest";
import { meter } from "../../domain/meter.js";
import type { ProviderUsage, UsageDocument } from "../../domain/usage-document.js";
import { barView, type BarOptions } from "../../oclif-cli/render/bar/bar-view.js";
import { BAR_FORMATS, BAR_FORMAT_NAMES } from "../../oclif-cli/render/bar/formats.js";
import { renderI3blocks } from "../../oclif-cli/render/bar/i3blocks.js";
import { escapePolybar, renderPolybar } from "../../oclif-cli/render/bar/polybar.js";
import { escapeMenuText, renderSwiftBar } from "../../oclif-cli/render/bar/swiftbar.js";
import { renderBarText } from "../../oclif-cli/render/bar/text.js";
import { escapeTmux, renderTmux } from "../../oclif-cli/render/bar/tmux.js";
import { escapePango, renderWaybar } from "../../oclif-cli/render/bar/waybar.js";

const NOW = new Date("2026-11-26T18:00:00Z");
const DASHBOARDS = { zai: "https://z.ai/manage-apikey/subscription", warp: "https://app.warp.dev/settings/billing" };
const options = (over: Partial<BarOptions> = {}): BarOptions => ({
  meter: "auto",
  now: NOW,
  config: { providers: [] },
  dashboards: DASHBOARDS,
  ...over,
});

function usage(fields: Partial<ProviderUsage> & Pick<ProviderUsage, "id" | "name">): ProviderUsage {
  return {
    ok: true,
    source: "api",
    plan: null,
    primary: null,
    secondary: null,
    tertiary: null,
    details: [],
    status: null,
    fetchedAt: "2026-11-26T17:58:00.000Z",
    stale: false,
    error: null,
    ...fields,
  };
}

/** z.ai at 81 % of its 5-hour tokens (a warning at the default 80 / 95), Warp at 40 % of its credits. */
const zai = usage({
  id: "zai",
  name: "z.ai",
  plan: "Pro",
  primary: meter("Tokens", {
    usedPercent: 81,
    used: 64_800_000,
    limit: 80_000_000,
    unit: "tokens",
    resetsAt: "2026-11-26T20:00:00.000Z",
    windowMinutes: 300,
  }),
  secondary: meter("Weekly tokens", { usedPercent: 31, used: 125_000_000, limit: 400_000_000, unit: "tokens" }),
});
const warp = usage({
  id: "warp",
  name: "Warp",
  plan: "Pro",
  primary: meter("Credits", { usedPercent: 40, used: 600, limit: 1500, unit: "credits", resetsAt: "2026-12-01T00:00:00.000Z" }),
});
const doc = (...providers: ProviderUsage[]): UsageDocument => ({ version: 1, generatedAt: NOW.toISOString(), providers });

/** What waybar does with a line of `return-type: json`: JSON.parse it and read these fields with these types. */
function asWaybarReadsIt(line: string) {
  expect(line).not.toContain("\n");
  const parsed = JSON.parse(line) as Record<string, unknown>;
  expect(Object.keys(parsed).sort()).toEqual(["alt", "class", "percentage", "text", "tooltip"]);
  expect(typeof parsed.text).toBe("string");
  expect(typeof parsed.alt).toBe("string");
  expect(typeof parsed.tooltip).toBe("string");
  expect(["ok", "warning", "critical", "stale", "error"]).toContain(parsed.class);
  expect(Number.isInteger(parsed.percentage)).toBe(true);
  expect(parsed.percentage as number).toBeGreaterThanOrEqual(0);
  expect(parsed.percentage as number).toBeLessThanOrEqual(100);
  return parsed as { text: string; alt: string; tooltip: string; class: string; percentage: number };
}

describe("quotabar bar: each format's documented shape", () => {
  it("waybar: one JSON line; text the fullest meter, alt its provider, tooltip every meter with its reset, class, an integer percentage", () => {
    const line = renderWaybar(doc(warp, zai), options());
    const w = asWaybarReadsIt(line);
    expect(w).toEqual({
      text: "zai 81%",
      alt: "zai",
      tooltip: [
        "Warp · Pro",
        "  Credits 40% · 600 / 1,500 credits · resets in 4d 6h",
        "z.ai · Pro",
        "  Tokens 81% · 64.8M / 80M tokens · resets in 2h 00m",
        "  Weekly tokens 31% · 125M / 400M tokens",
      ].join("\n"),
      class: "warning",
      percentage: 81,
    });
  });

  it("waybar: the class follows the config's notify thresholds (lowest: warning, highest: critical), per provider", () => {
    const critical = { notify: { thresholds: [50, 75] }, providers: [] };
    expect(asWaybarReadsIt(renderWaybar(doc(zai), options({ config: critical }))).class).toBe("critical");
    const three = { notify: { thresholds: [30, 60, 90] }, providers: [] };
    expect(asWaybarReadsIt(renderWaybar(doc(warp), options({ config: three }))).class).toBe("warning");
    // a provider's own entry overrides the root, field by field
    const own = { notify: { thresholds: [50, 75] }, providers: [{ id: "zai", notify: { thresholds: [70, 99] } }] };
    expect(asWaybarReadsIt(renderWaybar(doc(zai), options({ config: own }))).class).toBe("warning");
    expect(asWaybarReadsIt(renderWaybar(doc(warp), options())).class).toBe("ok");
  });

  it("waybar: stale when a provider shows its last good numbers, error when one has none, critical over both", () => {
    const stale = { ...warp, ok: false, stale: true, error: { code: "network" as const, message: "connection reset", hint: null } };
    const failed = usage({
      id: "kimi",
      name: "Kimi",
      ok: false,
      source: null,
      fetchedAt: null,
      error: { code: "unauthorized", message: "Kimi refused the token", hint: "Sign in again." },
    });
    const s = asWaybarReadsIt(renderWaybar(doc(stale), options()));
    expect(s.class).toBe("stale");
    expect(s.tooltip).toContain("stale: the last good data, updated 2m ago");
    expect(s.tooltip).toContain("network: connection reset");
    const e = asWaybarReadsIt(renderWaybar(doc(stale, failed), options()));
    expect(e.class).toBe("error");
    expect(e.text).toBe("warp 40%");
    expect(e.tooltip).toContain("Kimi\n  unauthorized: Kimi refused the token");
    const onlyFailed = asWaybarReadsIt(renderWaybar(doc(failed), options()));
    expect(onlyFailed).toMatchObject({ text: "quotabar", alt: "error", class: "error", percentage: 0 });
    const full = { ...zai, primary: { ...(zai.primary as NonNullable<ProviderUsage["primary"]>), usedPercent: 99.6 } };
    expect(asWaybarReadsIt(renderWaybar(doc(full, failed, stale), options()))).toMatchObject({ class: "critical", percentage: 100 });
    expect(asWaybarReadsIt(renderWaybar(doc(), options()))).toMatchObject({ text: "no providers", class: "error", percentage: 0 });
  });

  it("--meter primary / secondary: that meter speaks for each provider (auto: the fullest)", () => {
    const weeklyFirst = { ...zai, primary: { ...(zai.primary as NonNullable<ProviderUsage["primary"]>), usedPercent: 12 } };
    expect(barView(doc(weeklyFirst), options()).headline?.text).toBe("zai 31%");
    expect(barView(doc(weeklyFirst), options({ meter: "primary" })).headline?.text).toBe("zai 12%");
    expect(barView(doc(weeklyFirst, warp), options({ meter: "secondary" })).headline?.text).toBe("zai 31%");
    // Warp has no secondary: it has nothing to put in the title, and is ok
    expect(barView(doc(warp), options({ meter: "secondary" }))).toMatchObject({ headline: null, level: "ok", percentage: 0 });
  });

  it("shows a meter's pace where the document has one", () => {
    const paced = {
      ...zai,
      primary: {
        ...(zai.primary as NonNullable<ProviderUsage["primary"]>),
        pace: {
          expectedPercent: 60,
          deltaPercent: 21,
          runsOutAt: "2026-11-26T18:40:00.000Z",
          lastsToReset: false,
          basis: "window" as const,
        },
      },
    };
    expect(asWaybarReadsIt(renderWaybar(doc(paced), options())).tooltip).toContain(
      "Tokens 81% · 64.8M / 80M tokens · resets in 2h 00m · 21% ahead of pace · runs out in 40m, 1h 20m before the reset",
    );
  });

  it("i3blocks: full text, short text and a #rrggbb colour, three lines", () => {
    const lines = renderI3blocks(doc(warp, zai), options()).split("\n");
    expect(lines).toEqual(["warp 40% · zai 81%", "zai 81%", "#f9e2af"]);
  });

  it("polybar: one line, each provider between %{F#rrggbb} and %{F-}", () => {
    const line = renderPolybar(doc(warp, zai), options());
    expect(line).toBe("%{F#a6e3a1}warp 40%%{F-} · %{F#f9e2af}zai 81%%{F-}");
    expect(line.match(/%\{F#[0-9a-f]{6}\}/g)).toHaveLength(2);
  });

  it("tmux: one line of #[fg=colour] segments, each closed by #[default]", () => {
    expect(renderTmux(doc(warp, zai), options())).toBe("#[fg=green]warp 40%#[default] · #[fg=yellow]zai 81%#[default]");
  });

  it("SwiftBar / xbar: the title, ---, a line per meter with color= and href= to the provider's dashboard, then Refresh", () => {
    const lines = renderSwiftBar(doc(zai), options()).split("\n");
    expect(lines).toEqual([
      "zai 81% | color=#f9e2af",
      "---",
      "z.ai · Pro | color=#f9e2af href=https://z.ai/manage-apikey/subscription",
      "z.ai Tokens 81% · 64.8M / 80M tokens · resets in 2h 00m | color=#f9e2af href=https://z.ai/manage-apikey/subscription",
      "z.ai Weekly tokens 31% · 125M / 400M tokens | color=#a6e3a1 href=https://z.ai/manage-apikey/subscription",
      "---",
      "Refresh | refresh=true",
    ]);
    expect(BAR_FORMATS.xbar).toBe(BAR_FORMATS.swiftbar);
  });

  it("text: the one-line summary, then the detail", () => {
    expect(renderBarText(doc(warp, zai), options()).split("\n").slice(0, 3)).toEqual([
      "warp 40% · zai 81%",
      "Warp · Pro",
      "  Credits 40% · 600 / 1,500 credits · resets in 4d 6h",
    ]);
  });
});

describe("quotabar bar: upstream text never changes a bar's formatting", () => {
  const ESC = "\u001b";
  /** A plan and a meter label as a hostile upstream could send them (the name and id stay the registry's). */
  const hostile = usage({
    id: "zai",
    name: "z.ai",
    plan: `Pro %{A1:xterm:}%{F#ff0000} #[fg=red]#(reboot) <b>&amp; | href=https://evil.example ${ESC}[31m${ESC}]8;;https://evil${ESC}\\`,
    primary: meter(`--Tokens | bash=/bin/sh <span foreground="red">%{B#000}#[bg=red]`, { usedPercent: 81 }),
    error: null,
  });
  const rendered = Object.fromEntries(BAR_FORMAT_NAMES.map((name) => [name, BAR_FORMATS[name](doc(hostile), options())]));

  it("no terminal escape or control character in any format", () => {
    for (const [name, text] of Object.entries(rendered)) {
      // eslint-disable-next-line no-control-regex -- looking for control characters is the point
      expect(text.replace(/\n/g, ""), name).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    }
  });

  it("waybar: <, > and & are Pango entities in text and tooltip", () => {
    const w = asWaybarReadsIt(rendered.waybar as string);
    expect(w.tooltip).not.toMatch(/<(?!\/?\w+>)|<b>|<span/);
    expect(w.tooltip).toContain("&lt;b&gt;&amp;amp;");
    expect(w.tooltip).toContain('&lt;span foreground="red"&gt;');
    expect(escapePango("a<b>&c")).toBe("a&lt;b&gt;&amp;c");
  });

  it("polybar: no %{ from upstream text survives, so only quotabar's own colour tags are tags", () => {
    expect(escapePolybar("50%{F#f00}x %%{A1:rm:}")).not.toContain("%{");
    const text = renderPolybar(doc({ ...hostile, id: "a%{A1:sh:}b" }), options());
    expect(text.match(/%\{/g)).toHaveLength(2);
    expect(text).toMatch(/^%\{F#[0-9a-f]{6}\}a% \{A1:sh:\}b 81%%\{F-\}$/);
  });

  it("tmux: a # from upstream text is ##, so only quotabar's #[...] segments are styles", () => {
    expect(escapeTmux("#[fg=red]#(reboot)")).toBe("##[fg=red]##(reboot)");
    const text = renderTmux(doc({ ...hostile, id: "x#[fg=red]" }), options());
    expect(text).toBe("#[fg=yellow]x##[fg=red] 81%#[default]");
    // every # that is not doubled opens one of quotabar's own two segments
    expect(text.replace(/##/g, "").match(/#\[/g)).toHaveLength(2);
  });

  it("SwiftBar / xbar: a | from upstream text is not a parameter, and no line starts a submenu", () => {
    const lines = (rendered.swiftbar as string).split("\n");
    for (const line of lines) {
      expect(line.split("|").length, line).toBeLessThanOrEqual(2);
      if (line !== "---") expect(line.startsWith("-"), line).toBe(false);
    }
    // the parameters SwiftBar reads (after the one |) are quotabar's own
    expect(lines.map((line) => line.split("|")[1] ?? "").filter((params) => params.includes("evil"))).toEqual([]);
    expect(escapeMenuText("--sub | bash=/bin/sh")).toBe("\u2010\u2010sub ¦ bash=/bin/sh");
  });

  it("i3blocks: upstream text stays on its line, so it can never set the colour line", () => {
    const lines = renderI3blocks(doc({ ...hostile, id: "zai\n#000000" }), options()).split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("#f9e2af");
  });
});
