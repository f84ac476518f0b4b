import { describe, expect, it } from "vitest";
import { meter } from "../../domain/meter.js";
import { headlineOf, menuBarModel } from "../../menubar-raycast/menu-bar-model.js";
import { formatAge, formatPercent, formatQuantity, shorten, textBar } from "../../presentation/format.js";
import { toneOf } from "../../presentation/severity.js";
import { withIncidentBadge } from "../shared/icons.js";
import { meterView } from "../shared/meter-view.js";
import { hintFor } from "../shared/remedy-view.js";
import { canRead } from "../shared/coming-soon.js";
import { listModel } from "../src/list-model.js";
import {
  copilot,
  copilotIncident,
  copilotMissing,
  doc,
  kimik2Missing,
  listing,
  NOW,
  openrouterNearLimit,
  usage,
  warp,
  warpUnauthorized,
  warpUnlimited,
  zaiStale,
} from "./documents.js";

describe("numbers", () => {
  it("formats percentages without rounding up to a full 100%", () => {
    expect(formatPercent(37.5)).toBe("38%");
    expect(formatPercent(81)).toBe("81%");
    expect(formatPercent(0.3)).toBe("<1%");
    expect(formatPercent(0)).toBe("0%");
    expect(formatPercent(99.7)).toBe("99%");
    expect(formatPercent(100)).toBe("100%");
  });

  it("formats quantities in the meter's unit", () => {
    expect(formatQuantity(copilot.primary!)).toBe("112.5 / 300 requests");
    expect(formatQuantity(warp.primary!)).toBe("1,215 / 1,500 credits");
    expect(formatQuantity(openrouterNearLimit.primary!)).toBe("$18.90 / $20.00");
    expect(formatQuantity(zaiStale.primary!)).toBe("23.5M / 80M tokens");
    expect(formatQuantity(meter("Calls", { used: 312, unit: "calls" }))).toBe("312 calls used");
    expect(formatQuantity(meter("Rate limit", { note: "200 requests / 10s" }))).toBeNull();
  });

  it("colours by the CLI's thresholds", () => {
    expect(toneOf(69.9)).toBe("normal");
    expect(toneOf(70)).toBe("warning");
    expect(toneOf(90)).toBe("critical");
    expect(toneOf(null)).toBe("muted");
  });

  it("says how old data is", () => {
    expect(formatAge("2026-11-20T15:59:30.000Z", NOW)).toBe("just now");
    expect(formatAge("2026-11-20T15:55:00.000Z", NOW)).toBe("5m ago");
    expect(formatAge("2026-11-20T14:00:00.000Z", NOW)).toBe("2h ago");
    expect(formatAge("2026-11-17T16:00:00.000Z", NOW)).toBe("3d ago");
  });

  it("shows unlimited meters full with the text Unlimited", () => {
    const view = meterView(warpUnlimited.primary!, NOW);
    expect(view).toMatchObject({ percent: 100, percentText: "Unlimited", tone: "normal", note: null });
  });

  it("draws a text bar for the detail pane", () => {
    expect(textBar(37.5)).toBe("████████░░░░░░░░░░░░");
    expect(textBar(150)).toBe("█".repeat(20));
  });
});

describe("menu bar", () => {
  it("titles the most used meter among enabled providers, secondary meters included", () => {
    const model = menuBarModel(doc(copilot, warp, openrouterNearLimit), NOW);
    expect(model.title).toBe("95%");
    expect(model.tooltip).toBe("OpenRouter · Credits 95% used");
    expect(model.icon).toEqual({ progress: 0.945, tone: "critical", incident: false });
    expect(headlineOf(doc(copilot, usage2()))?.meter.label).toBe("Weekly");
  });

  it("follows the provider picked in preferences", () => {
    const model = menuBarModel(doc(copilot, warp), NOW, "copilot");
    expect(model.title).toBe("38%");
    expect(model.icon.tone).toBe("normal");
  });

  it("never headlines an unlimited meter, and is empty without data", () => {
    expect(menuBarModel(doc(warpUnlimited), NOW).title).toBe("");
    const empty = menuBarModel(doc(), NOW);
    expect(empty).toMatchObject({ title: "", tooltip: "Quotabar: no provider set up", sections: [] });
    expect(menuBarModel(undefined, NOW).sections).toEqual([]);
  });

  it("has one section per provider with meters, plan, reset countdown and a dashboard item", () => {
    const [section] = menuBarModel(doc(copilot), NOW).sections;
    expect(section!.title).toBe("GitHub Copilot — Pro");
    expect(section!.items.map((i) => i.title)).toEqual(["Premium: 38%", "Chat: 10%", "Open GitHub Copilot Dashboard"]);
    expect(section!.items[0]).toMatchObject({
      subtitle: "112.5 / 300 requests · resets in 10d 8h",
      tooltip: "Resets Dec 1, 00:00 UTC",
      icon: { kind: "progress", progress: 0.375, tone: "normal" },
      action: { type: "open", url: "https://github.com/settings/copilot" },
    });
  });

  it("marks stale data with its age and shows the error with its hint", () => {
    const [section] = menuBarModel(doc(zaiStale), NOW).sections;
    const titles = section!.items.map((i) => i.title);
    expect(titles).toEqual([
      "Tokens: 29%",
      "Stale · updated 2h ago",
      "z.ai API error: HTTP 500",
      "z.ai is having trouble. Try again later.",
      "Open z.ai Dashboard",
    ]);
    expect(section!.items[2]!.icon).toEqual({ kind: "symbol", symbol: "warning", tone: "warning" });
  });

  it("offers Configure for a rejected key and the Raycast way to add a missing one", () => {
    const unauthorized = menuBarModel(doc(warpUnauthorized), NOW).sections[0]!;
    expect(unauthorized.items[0]).toMatchObject({
      title: "Warp API error: HTTP 401",
      icon: { kind: "symbol", symbol: "warning", tone: "critical" },
    });
    expect(unauthorized.items[1]).toEqual({
      title: "Update Your Warp API Key in Preferences…",
      tooltip: "The token is invalid, or the network cannot reach app.warp.dev. Add your Warp API Key in the extension preferences.",
      action: { type: "configure" },
      icon: { kind: "symbol", symbol: "hint", tone: "muted" },
    });
    const missing = menuBarModel(doc(kimik2Missing), NOW).sections[0]!;
    expect(missing.items[1]).toMatchObject({
      title: "Add Your Kimi K2 API Key (Unofficial) in Preferences…",
      action: { type: "configure" },
    });
    const signIn = menuBarModel(doc(copilotMissing), NOW).sections[0]!;
    expect(signIn.items[1]).toMatchObject({ title: "Sign in to GitHub Copilot…", action: { type: "sign-in", provider: "copilot" } });
    const rejected = menuBarModel(doc({ ...copilot, ok: false, error: { ...warpUnauthorized.error!, hint: null } }), NOW).sections[0]!;
    expect(rejected.items.find((i) => i.icon.kind === "symbol" && i.icon.symbol === "hint")).toMatchObject({
      title: "Sign in to GitHub Copilot Again…",
      action: { type: "sign-in", provider: "copilot" },
    });
  });

  it("badges the icon and lists incidents with a View Status item", () => {
    const model = menuBarModel(doc(copilotIncident, warp), NOW);
    expect(model.icon.incident).toBe(true);
    expect(model.tooltip).toContain("status incident");
    const items = model.sections[0]!.items;
    expect(items.find((i) => i.title === "Incident: Degraded performance for Copilot")).toMatchObject({
      subtitle: "major",
      action: { type: "open", url: "https://www.githubstatus.com/incidents/abc123" },
    });
    expect(items.find((i) => i.title === "View Status")).toMatchObject({
      subtitle: "www.githubstatus.com",
      action: { type: "open", url: "https://www.githubstatus.com" },
    });
  });

  it("shows no incident for an operational status page", () => {
    expect(menuBarModel(doc(copilot), NOW).icon.incident).toBe(false);
  });
});

describe("list", () => {
  it("lists enabled providers first, then every other provider as not set up", () => {
    const model = listModel(doc(warp, copilot), listing(), NOW);
    expect(model.enabled.map((r) => r.id)).toEqual(["warp", "copilot"]);
    expect(model.notSetUp).toHaveLength(19);
    expect(model.notSetUp.map((r) => r.id)).not.toContain("warp");
    const kimik2 = model.notSetUp.find((r) => r.id === "kimik2")!;
    expect(kimik2).toMatchObject({
      subtitle: "Not set up",
      enabled: false,
      json: null,
      accessories: [{ tag: "Unofficial", tone: "muted" }],
    });
    expect(kimik2.markdown).toContain("Add your Kimi K2 API Key (Unofficial) in the extension preferences.");
    expect(model.notSetUp.find((r) => r.id === "augment")!.markdown).toContain(
      "Paste a Cookie header into Augment Cookie Header in the extension preferences.",
    );
    expect(model.notSetUp.find((r) => r.id === "kiro")!.markdown).toContain("Found automatically:");
    expect(model.comingSoon).toEqual([]);
  });

  describe("providers still to come (listProviders() says supported: false)", () => {
    const soon = () => listing().map((l) => (l.id === "augment" || l.id === "factory" ? { ...l, supported: false } : l));

    it("are not offered as something to set up, and stay out of the list unless the preference asks for them", () => {
      const model = listModel(doc(warp), soon(), NOW);
      expect(model.notSetUp.map((r) => r.id)).not.toContain("augment");
      expect(model.notSetUp.map((r) => r.id)).not.toContain("factory");
      expect(model.notSetUp).toHaveLength(18);
      expect(model.comingSoon).toEqual([]);
    });

    it("go to Coming Soon when asked for, saying they cannot be read yet, with no setup hint, sign-in or CLI command", () => {
      const model = listModel(doc(warp), soon(), NOW, { showComingSoon: true });
      expect(model.comingSoon.map((r) => r.id)).toEqual(["augment", "factory"]);
      const augment = model.comingSoon[0]!;
      expect(augment).toMatchObject({
        title: "Augment",
        subtitle: "Coming soon",
        enabled: false,
        comingSoon: true,
        signIn: null,
        cliCommand: null,
        json: null,
        metadata: [],
      });
      expect(augment.markdown).toContain("This version of Quotabar cannot read Augment yet");
      expect(augment.markdown).not.toMatch(/preferences|Cookie|Sign-in methods|set up by|paste/i);
    });

    it("show one that is set up under Coming Soon, even without the preference, not as a failing enabled row", () => {
      const augment = usage({
        id: "augment",
        name: "Augment",
        ok: false,
        source: null,
        fetchedAt: null,
        error: { code: "unsupported_platform", message: "Augment is not supported by this version of quotabar yet", hint: null },
      });
      const listed = soon().map((l) => (l.id === "augment" ? { ...l, enabled: true, credentialsFound: true } : l));
      const model = listModel(doc(warp, augment), listed, NOW);
      expect(model.enabled.map((r) => r.id)).toEqual(["warp"]);
      expect(model.comingSoon.map((r) => [r.id, r.subtitle])).toEqual([["augment", "Set up · coming soon"]]);
      expect(model.comingSoon[0]!.markdown).toContain("it is kept");
      // before the listing has loaded, the registry says what can be read
      expect(listModel(doc(warp, augment), [], NOW).enabled.map((r) => r.id)).toEqual(canRead("augment") ? ["warp", "augment"] : ["warp"]);
    });
  });

  it("gives a row the plan, searchable keywords and accessories: countdown and percent of the primary meter", () => {
    const [row] = listModel(doc(copilot), listing(), NOW).enabled;
    expect(row).toMatchObject({ title: "GitHub Copilot", subtitle: "Pro", icon: { kind: "progress", progress: 0.375, tone: "normal" } });
    expect(row!.keywords).toEqual(["copilot", "Pro", "oauth"]);
    expect(row!.accessories).toEqual([
      { text: "10d 8h", icon: "clock", tooltip: "Resets Dec 1, 00:00 UTC" },
      { text: "38%", tone: "normal", tooltip: "Premium used" },
    ]);
    expect(row!.cliCommand).toBe("quotabar -p copilot");
    expect(JSON.parse(row!.json!)).toEqual(copilot);
    expect(row!.statusUrl).toBe("https://www.githubstatus.com");
  });

  it("tags incidents, stale data and errors", () => {
    const model = listModel(doc(copilotIncident, zaiStale, warpUnauthorized), listing(), NOW);
    const [incident, stale, failed] = model.enabled;
    expect(incident!.accessories[0]).toEqual({ tag: "Incident", tone: "critical", tooltip: "Partial System Outage" });
    expect(stale!.accessories[0]).toEqual({ tag: "Stale", tone: "warning", tooltip: "Last updated 2h ago" });
    expect(stale!.icon).toEqual({ kind: "progress", progress: 0.2932, tone: "normal" });
    expect(failed!.accessories).toEqual([]);
    expect(failed!.subtitle).toBe("Warp API error: HTTP 401");
    expect(failed!.icon).toEqual({ kind: "symbol", symbol: "warning", tone: "critical" });
  });

  it("details every meter, the status incidents, source and fetch time", () => {
    const [row] = listModel(doc(copilotIncident), listing(), NOW).enabled;
    expect(row!.markdown).toContain("### Premium · 38% used");
    expect(row!.markdown).toContain("`████████░░░░░░░░░░░░`");
    expect(row!.markdown).toContain("112.5 / 300 requests · resets in 10d 8h");
    expect(row!.markdown).toContain("### Chat · 10% used");
    expect(row!.metadata).toEqual([
      { kind: "label", title: "Plan", text: "Pro" },
      { kind: "label", title: "Premium resets", text: "Dec 1, 00:00 UTC (in 10d 8h)" },
      { kind: "label", title: "Chat", text: "Unlimited" },
      { kind: "separator" },
      { kind: "tags", title: "Status", tags: [{ text: "Partial System Outage", tone: "critical" }] },
      {
        kind: "link",
        title: "Incident",
        text: "Degraded performance for Copilot (major)",
        target: "https://www.githubstatus.com/incidents/abc123",
      },
      { kind: "link", title: "Status page", text: "www.githubstatus.com", target: "https://www.githubstatus.com" },
      { kind: "separator" },
      { kind: "label", title: "Source", text: "oauth" },
      { kind: "label", title: "Fetched", text: "Nov 20, 15:59 UTC (1m ago)" },
    ]);
  });

  it("keeps stale rows' last data and says why it is stale", () => {
    const [row] = listModel(doc(zaiStale), listing(), NOW).enabled;
    expect(row!.markdown).toContain("> ⚠️ z.ai API error: HTTP 500");
    expect(row!.metadata).toContainEqual({ kind: "label", title: "Last good fetch", text: "Nov 20, 14:00 UTC (2h ago)", tone: "warning" });
    expect(row!.metadata).toContainEqual({ kind: "label", title: "Error", text: "upstream: z.ai API error: HTTP 500", tone: "warning" });
  });
});

describe("hints", () => {
  it("points a missing credential at Raycast's preferences or the Copilot sign-in", () => {
    expect(hintFor(kimik2Missing)).toBe("Add your Kimi K2 API Key (Unofficial) in the extension preferences.");
    expect(hintFor(copilotMissing)).toBe(
      "Run “Sign in to GitHub Copilot”. A personal access token with read:user also works. Add your GitHub Copilot Token in the extension preferences.",
    );
    // a not-configured error without a hint of its own gets the provider's way in
    expect(hintFor({ ...copilotMissing, error: { ...copilotMissing.error!, hint: null } })).toBe(
      "Run “Sign in to GitHub Copilot”, or add your GitHub Copilot Token in the extension preferences.",
    );
    expect(hintFor(warpUnauthorized)).toBe(
      "The token is invalid, or the network cannot reach app.warp.dev. Add your Warp API Key in the extension preferences.",
    );
    expect(hintFor(zaiStale)).toBe("z.ai is having trouble. Try again later.");
    expect(hintFor(copilot)).toBeNull();
  });
});

describe("menu lines", () => {
  it("shortens long menu lines at a word", () => {
    expect(shorten("The service had a problem; try again later.", 64)).toBe("The service had a problem; try again later.");
    expect(shorten("The token is invalid, or the network cannot reach app.warp.dev at the moment", 40)).toBe(
      "The token is invalid, or the network…",
    );
  });
});

describe("incident badge", () => {
  it("adds a dot to the progress ring's SVG and leaves other images alone", () => {
    const ring = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg"><circle r="40"/></svg>  ')}`;
    const badged = decodeURIComponent(withIncidentBadge(ring).slice("data:image/svg+xml,".length));
    expect(badged).toMatch(/<circle r="40"\/><circle cx="82" cy="18" r="17" fill="#FF6363"[^>]*\/><\/svg>$/);
    expect(withIncidentBadge("Warning")).toBe("Warning");
  });
});

function usage2() {
  return {
    ...warp,
    id: "kimi",
    name: "Kimi",
    primary: meter("Requests", { usedPercent: 20 }),
    secondary: meter("Weekly", { usedPercent: 50 }),
  };
}
