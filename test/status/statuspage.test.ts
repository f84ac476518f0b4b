import { describe, expect, it } from "vitest";
import {
  statuspageComponents,
  StatuspageComponentsSchema,
  statuspageReading,
  StatuspageSummarySchema,
} from "../../adapters/http/statuspage-feed.js";
import { QuotabarError } from "../../domain/errors.js";
import { componentIndicator } from "../../domain/status/components.js";
import { statuspageStatus, type StatuspageComponent } from "../../domain/status/statuspage.js";
import { decodeJson } from "../../domain/decode-body.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(new URL("../../simulator/status-pages.ts", import.meta.url).href);

const GITHUB = "https://www.githubstatus.com";

function parse(body: string, pageUrl = GITHUB) {
  return statuspageStatus(statuspageReading(decodeJson(body, StatuspageSummarySchema, "www.githubstatus.com")), pageUrl);
}
const fromJson = (value: unknown, pageUrl = GITHUB) => parse(JSON.stringify(value), pageUrl);

const components = (body: string): StatuspageComponent[] =>
  statuspageComponents(decodeJson(body, StatuspageComponentsSchema, "www.githubstatus.com"));

/** Copilot as the descriptor has it: GitHub's page, judged by its Copilot component. */
function copilot(summary: string, componentsBody: string | null, names: readonly string[] = ["Copilot"]) {
  const reading = statuspageReading(decodeJson(summary, StatuspageSummarySchema, "www.githubstatus.com"));
  return statuspageStatus(reading, GITHUB, { names, components: componentsBody === null ? null : components(componentsBody) });
}
const summaryWith = (extra: Record<string, unknown>) =>
  JSON.stringify({ status: { indicator: "major", description: "Partial System Outage" }, incidents: [], ...extra });
const componentsJson = (list: Record<string, unknown>[]) => JSON.stringify({ page: { id: "kctbh9vrtdwd" }, components: list });

describe("Statuspage summary.json", () => {
  it("reads an operational page: indicator none, its description, no incidents", () => {
    expect(parse(fixture("status/githubstatus-summary-operational.json"))).toEqual({
      indicator: "none",
      description: "All Systems Operational",
      url: GITHUB,
      incidents: [],
    });
  });

  it("reads an unresolved incident with name, impact, shortlink and last update", () => {
    expect(parse(fixture("status/githubstatus-summary-incident.json"))).toEqual({
      indicator: "minor",
      description: "Partially Degraded Service",
      url: GITHUB,
      incidents: [
        {
          name: "Disruption with some GitHub services",
          impact: "minor",
          url: "https://stspg.io/7f3kq2p9xw4b",
          updatedAt: "2026-11-20T09:52:17.798Z",
        },
      ],
    });
  });

  it("keeps several incidents in page order and converts local offsets to UTC", () => {
    const status = parse(fixture("status/factory-summary-incident.json"), "https://status.factory.ai");
    expect(status.indicator).toBe("major");
    expect(status.description).toBe("Partial System Outage");
    expect(status.incidents).toEqual([
      {
        name: "Elevated error rates for Droid sessions",
        impact: "major",
        url: "https://stspg.io/p0z6g3k8",
        updatedAt: "2026-11-20T10:18:41.871Z",
      },
      {
        name: "Usage dashboard shows delayed numbers",
        impact: "minor",
        url: "https://stspg.io/e5c2v9b6",
        updatedAt: "2026-11-20T00:40:12.447Z",
      },
    ]);
  });

  it("lists a maintenance in progress but not one that is only scheduled", () => {
    const status = parse(fixture("status/githubstatus-summary-maintenance.json"));
    expect(status.indicator).toBe("maintenance");
    expect(status.description).toBe("Service Under Maintenance");
    expect(status.incidents).toEqual([
      {
        name: "Scheduled maintenance of Copilot chat infrastructure",
        impact: "maintenance",
        url: "https://stspg.io/m2h8c5w1",
        updatedAt: "2026-11-21T02:00:04.270Z",
      },
    ]);
  });

  it("reads status.json (indicator only), as pages without a summary serve", () => {
    expect(parse(fixture("status/githubstatus-status.json"))).toEqual({
      indicator: "minor",
      description: "Partially Degraded Service",
      url: GITHUB,
      incidents: [],
    });
  });

  it("maps every indicator word, in any case", () => {
    for (const indicator of ["none", "minor", "major", "critical", "maintenance"] as const) {
      expect(fromJson({ status: { indicator: indicator.toUpperCase() } }).indicator).toBe(indicator);
    }
  });

  it("labels the indicator when the description is missing", () => {
    expect(fromJson({ status: { indicator: "none" } }).description).toBe("Operational");
    expect(fromJson({ status: { indicator: "major" } }).description).toBe("Major outage");
    expect(fromJson({ status: { indicator: "critical", description: "  " } }).description).toBe("Critical issue");
  });

  it("lets the worst open incident decide when the indicator is missing or unknown", () => {
    const incidents = [
      { name: "A", impact: "minor", status: "investigating" },
      { name: "B", impact: "critical", status: "identified" },
    ];
    expect(fromJson({ incidents }).indicator).toBe("critical");
    expect(fromJson({ status: { indicator: "degraded" }, incidents }).indicator).toBe("critical");
    expect(fromJson({ status: { indicator: "degraded" } }).indicator).toBe("minor");
    expect(fromJson({ status: {} }).indicator).toBe("none");
    expect(fromJson({ incidents: [] }).indicator).toBe("none");
  });

  it("drops resolved incidents and tolerates missing incident fields", () => {
    const status = fromJson({
      status: { indicator: "minor", description: "Minor Service Outage" },
      incidents: [
        { id: "old1", name: "Fixed", impact: "major", status: "resolved", resolved_at: "2026-11-20T08:00:00Z" },
        { id: "old2", name: "Post-mortem", impact: "major", status: "postmortem" },
        { id: "old3", name: "Resolved without status", impact: "major", resolved_at: "2026-11-20T08:00:00Z" },
        { id: "abc123" },
        { name: "  Webhooks delayed ", impact: "Minor", updated_at: "not a date", created_at: "2026-11-20T07:00:00+02:00" },
      ],
    });
    expect(status.incidents).toEqual([
      { name: "Unnamed incident", impact: "unknown", url: "https://www.githubstatus.com/incidents/abc123", updatedAt: null },
      { name: "Webhooks delayed", impact: "minor", url: null, updatedAt: "2026-11-20T05:00:00.000Z" },
    ]);
  });

  it("fails with a parse error naming the field when the shape is wrong", () => {
    expect(() => parse(fixture("status/statuspage-malformed.json"))).toThrow(/status: /);
    expect(() => fromJson({ page: { name: "GitHub" } })).toThrow(/status: expected an object/);
    expect(() => fromJson({ status: { indicator: 3 } })).toThrow(/status\.indicator/);
    expect(() => parse("<!doctype html><title>Service Unavailable</title>")).toThrow(QuotabarError);
    try {
      parse("<!doctype html>");
    } catch (error) {
      expect((error as QuotabarError).code).toBe("parse");
    }
  });
});

describe("Statuspage components.json: the components that speak for a provider", () => {
  it("maps every component status word of the reference, in any case; another word counts as minor", () => {
    expect(componentIndicator("operational")).toBe("none");
    expect(componentIndicator("degraded_performance")).toBe("minor");
    expect(componentIndicator("partial_outage")).toBe("major");
    expect(componentIndicator("major_outage")).toBe("critical");
    expect(componentIndicator("full_outage")).toBe("critical");
    expect(componentIndicator("under_maintenance")).toBe("maintenance");
    expect(componentIndicator(" Partial_Outage ")).toBe("major");
    expect(componentIndicator("on_fire")).toBe("minor");
    expect(componentIndicator(null)).toBe("none");
  });

  it("judges Copilot by its component: degraded performance is minor, and says which component", () => {
    expect(copilot(fixture("status/githubstatus-summary-incident.json"), fixture("status/githubstatus-components-incident.json"))).toEqual({
      indicator: "minor",
      description: "Copilot: Degraded performance",
      url: GITHUB,
      incidents: [
        {
          name: "Disruption with some GitHub services",
          impact: "minor",
          url: "https://stspg.io/7f3kq2p9xw4b",
          updatedAt: "2026-11-20T09:52:17.798Z",
        },
      ],
    });
  });

  it("stays operational for Copilot when another component is down, and drops that component's incident", () => {
    const summary = fixture("status/githubstatus-summary-other-component.json");
    expect(copilot(summary, fixture("status/githubstatus-components-other-component.json"))).toEqual({
      indicator: "none",
      description: "Operational",
      url: GITHUB,
      incidents: [],
    });
    // without a focus (a provider that names no component) the whole page decides, as before
    expect(parse(summary)).toMatchObject({
      indicator: "major",
      description: "Partial System Outage",
      incidents: [{ name: "Incident with Actions" }],
    });
  });

  it("shows a maintenance of the component, with the maintenance that names no component", () => {
    const status = copilot(
      fixture("status/githubstatus-summary-maintenance.json"),
      fixture("status/githubstatus-components-maintenance.json"),
    );
    expect(status.indicator).toBe("maintenance");
    expect(status.description).toBe("Copilot: Under maintenance");
    expect(status.incidents.map((i) => i.name)).toEqual(["Scheduled maintenance of Copilot chat infrastructure"]);
  });

  it("falls back to summary.json's own component list when components.json did not answer", () => {
    expect(copilot(fixture("status/githubstatus-summary-incident.json"), null)).toMatchObject({
      indicator: "minor",
      description: "Copilot: Degraded performance",
    });
  });

  it("lets the page decide when the named component is on neither list", () => {
    const status = copilot(fixture("status/githubstatus-summary-incident.json"), fixture("status/githubstatus-components-incident.json"), [
      "Copilot Enterprise",
    ]);
    expect(status).toMatchObject({ indicator: "minor", description: "Partially Degraded Service" });
    expect(copilot(fixture("status/githubstatus-status.json"), null)).toMatchObject({ indicator: "minor", incidents: [] });
  });

  it("reads a named group through its members, and keeps the incidents that name the group or a member", () => {
    const list = [
      { id: "g1", name: "Copilot", status: "partial_outage", group: true, group_id: null },
      { id: "c1", name: "Copilot Chat", status: "partial_outage", group: false, group_id: "g1" },
      { id: "c2", name: "Code completions", status: "Degraded_Performance", group: false, group_id: "g1" },
      { id: "c3", name: "Actions", status: "major_outage", group: false, group_id: null },
    ];
    const incidents = [
      { id: "i1", name: "Chat down", impact: "major", status: "identified", components: [{ id: "c1", name: "Copilot Chat" }] },
      { id: "i2", name: "Group-wide", impact: "minor", status: "monitoring", components: [{ id: "g1" }] },
      { id: "i3", name: "Actions down", impact: "critical", status: "investigating", components: [{ id: "c3" }] },
      { id: "i4", name: "Not yet assigned", impact: "minor", status: "investigating", components: [] },
    ];
    const status = copilot(summaryWith({ incidents }), componentsJson(list));
    expect(status.indicator).toBe("major");
    expect(status.description).toBe("Copilot Chat: Partial outage; Code completions: Degraded performance");
    expect(status.incidents.map((i) => i.name)).toEqual(["Chat down", "Group-wide", "Not yet assigned"]);
    // a member can be named on its own
    expect(copilot(summaryWith({ incidents }), componentsJson(list), ["code completions"]).indicator).toBe("minor");
  });

  it("names at most three troubled components, worst first", () => {
    const list = ["a", "b", "c", "d", "e"].map((name, index) => ({
      id: name,
      name: `C ${name}`,
      status: index === 3 ? "major_outage" : "degraded_performance",
      group_id: "g",
    }));
    const status = copilot(summaryWith({}), componentsJson([{ id: "g", name: "Copilot", status: "major_outage", group: true }, ...list]));
    expect(status.indicator).toBe("critical");
    expect(status.description).toBe("C d: Major outage; C a: Degraded performance; C b: Degraded performance (+2 more)");
  });

  it("rejects a components.json of another shape (the feed then ignores it)", () => {
    expect(StatuspageComponentsSchema.safeParse({ components: "none" }).success).toBe(false);
    expect(StatuspageComponentsSchema.safeParse({ page: {} }).success).toBe(false);
    expect(StatuspageComponentsSchema.safeParse({ components: [{ id: 1 }] }).success).toBe(false);
    expect(components(JSON.stringify({ components: [{}] }))).toEqual([{ id: null, name: null, status: null, group: false, groupId: null }]);
  });
});
