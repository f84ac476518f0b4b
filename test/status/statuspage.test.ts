import { describe, expect, it } from "vitest";
import { statuspageReading, StatuspageSummarySchema } from "../../adapters/http/statuspage-feed.js";
import { QuotabarError } from "../../domain/errors.js";
import { statuspageStatus } from "../../domain/status/statuspage.js";
import { decodeJson } from "../../domain/decode-body.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(new URL("../../simulator/status-pages.ts", import.meta.url).href);

const GITHUB = "https://www.githubstatus.com";

function parse(body: string, pageUrl = GITHUB) {
  return statuspageStatus(statuspageReading(decodeJson(body, StatuspageSummarySchema, "www.githubstatus.com")), pageUrl);
}
const fromJson = (value: unknown, pageUrl = GITHUB) => parse(JSON.stringify(value), pageUrl);

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
