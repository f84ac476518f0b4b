import { describe, expect, it } from "vitest";
import { incidentIoProxyUrl, incidentIoReading } from "../../adapters/http/incident-io-feed.js";
import { incidentIoStatus, wholePageDecides, type StatusOverlay } from "../../domain/status/incident-io.js";
import type { IncidentIoReading } from "../../domain/status/incident-io.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(new URL("../../simulator/status-pages.ts", import.meta.url).href);

const FACTORY = "https://status.factory.ai";
const GITHUB = "https://www.githubstatus.com";

function reading(body: string): IncidentIoReading {
  const read = incidentIoReading(body);
  if (read === null) throw new Error("not an incident.io feed");
  return read;
}
const overlay = (name: string): StatusOverlay => {
  const body = JSON.parse(fixture(`status/${name}`)) as { status: StatusOverlay };
  return body.status;
};
/** A proxy feed with the given structure items and affected components. */
const feed = (items: unknown[], affected: unknown[] = [], incidents: unknown[] = []) =>
  JSON.stringify({ summary: { affected_components: affected, ongoing_incidents: incidents, structure: { items } } });
const component = (id: string, name: string, hidden = false) => ({ component: { component_id: id, name, hidden } });

describe("incident.io proxy feed", () => {
  it("is asked at https://<host>/proxy/<host>", () => {
    expect(incidentIoProxyUrl("https://status.factory.ai/")).toBe("https://status.factory.ai/proxy/status.factory.ai");
    expect(incidentIoProxyUrl("https://www.githubstatus.com")).toBe("https://www.githubstatus.com/proxy/www.githubstatus.com");
  });

  it("reads a Factory incident: the worst visible component decides, status.json lends its words", () => {
    const read = reading(fixture("status/factory-incidentio-incident.json"));
    expect(wholePageDecides(read, undefined)).toBe(true);
    expect(incidentIoStatus(read, FACTORY, undefined, overlay("factory-status-incident.json"))).toEqual({
      indicator: "major",
      description: "Partial System Outage",
      url: FACTORY,
      incidents: [
        {
          name: "Elevated error rates for Droid sessions",
          impact: "major",
          url: "https://status.factory.ai/incidents/01JE2M7R4T9W3Y6A1C5E8G0J2L",
          updatedAt: "2026-11-20T10:18:41.871Z",
        },
        {
          name: "Usage dashboard shows delayed numbers",
          impact: "minor",
          url: "https://status.factory.ai/incidents/01JE2K3P8S1V6X9Z2B4D7F0H3K",
          updatedAt: "2026-11-20T00:40:12.447Z",
        },
      ],
    });
  });

  it("names the troubled components when status.json is missing or says something else", () => {
    const read = reading(fixture("status/factory-incidentio-incident.json"));
    const expected = "Droid sessions: Partial outage; Web App: Degraded performance";
    expect(incidentIoStatus(read, FACTORY, undefined, null).description).toBe(expected);
    expect(incidentIoStatus(read, FACTORY, undefined, overlay("factory-status-operational.json"))).toMatchObject({
      indicator: "major",
      description: expected,
    });
  });

  it("ignores hidden components (the hidden one in the fixture is in a full outage)", () => {
    const read = reading(fixture("status/factory-incidentio-incident.json"));
    expect(read.components.map((c) => c.name)).toEqual(["Droid CLI", "Droid sessions", "Web App", "API"]);
    expect(incidentIoStatus(read, FACTORY, undefined, null).indicator).toBe("major");
  });

  it("reads an operational page with the page's description", () => {
    const read = reading(fixture("status/factory-incidentio-operational.json"));
    expect(incidentIoStatus(read, FACTORY, undefined, overlay("factory-status-operational.json"))).toEqual({
      indicator: "none",
      description: "All Systems Operational",
      url: FACTORY,
      incidents: [],
    });
    expect(incidentIoStatus(read, FACTORY, undefined, null).description).toBe("Operational");
  });

  it("judges a provider by the group it names: Copilot's members, not Actions", () => {
    const read = reading(fixture("status/githubstatus-incidentio-incident.json"));
    expect(wholePageDecides(read, ["Copilot"])).toBe(false);
    expect(incidentIoStatus(read, GITHUB, ["Copilot"], null)).toEqual({
      indicator: "minor",
      description: "Copilot Chat: Degraded performance",
      url: GITHUB,
      incidents: [
        {
          name: "Copilot Chat responses are slow",
          impact: "minor",
          url: "https://www.githubstatus.com/incidents/01JE3A9Z8Y7X6W5V4T3S2R1Q0P",
          updatedAt: "2026-11-20T08:55:19.321Z",
        },
      ],
    });
    // the whole page: Actions is down
    expect(incidentIoStatus(read, GITHUB, undefined, null)).toMatchObject({
      indicator: "critical",
      description: expect.stringMatching(/^Actions: Full outage; /),
    });
    // a name that is not on the page: the whole page decides
    expect(wholePageDecides(read, ["Copilot Enterprise"])).toBe(true);
    expect(incidentIoStatus(read, GITHUB, ["Copilot Enterprise"], null).indicator).toBe("critical");
    expect(incidentIoStatus(reading(fixture("status/githubstatus-incidentio-operational.json")), GITHUB, ["Copilot"], null)).toEqual({
      indicator: "none",
      description: "Operational",
      url: GITHUB,
      incidents: [],
    });
  });

  it("counts unlisted components as operational and maps every component word", () => {
    const items = [component("a", "A"), component("b", "B"), component("c", "C")];
    const status = (word: string) =>
      incidentIoStatus(reading(feed(items, [{ component_id: "b", status: word }])), FACTORY, undefined, null);
    expect(status("operational").indicator).toBe("none");
    expect(status("degraded_performance").indicator).toBe("minor");
    expect(status("partial_outage").indicator).toBe("major");
    expect(status("full_outage").indicator).toBe("critical");
    expect(status("under_maintenance")).toMatchObject({ indicator: "maintenance", description: "B: Under maintenance" });
    expect(status("smouldering")).toMatchObject({ indicator: "minor", description: "B: Status unknown" });
  });

  it("tolerates missing fields: nameless components and incidents, no incident ids or times", () => {
    const read = reading(
      feed(
        [
          component("a", "  "),
          { component: { id: "b", name: "B" } },
          { group: { name: "G", components: [{ component_id: "c", name: "C" }] } },
        ],
        [{ component_id: "a", status: "full_outage" }, { component_id: "c", status: "partial_outage" }, { status: "full_outage" }],
        [
          { current_worst_impact: null, affected_components: null },
          { name: "Later", last_update_at: "nope", published_at: "2026-11-20T09:00:00+02:00" },
        ],
      ),
    );
    expect(read.components).toEqual([
      { id: "b", name: "B", status: "operational", groupName: null },
      { id: "c", name: "C", status: "partial_outage", groupName: "G" },
    ]);
    expect(incidentIoStatus(read, FACTORY, ["G"], null)).toEqual({
      indicator: "major",
      description: "C: Partial outage",
      url: FACTORY,
      incidents: [
        { name: "Unnamed incident", impact: "unknown", url: null, updatedAt: null },
        { name: "Later", impact: "unknown", url: null, updatedAt: "2026-11-20T07:00:00.000Z" },
      ],
    });
  });

  it("is not an incident.io feed when the body is anything else (the page is then read as a Statuspage)", () => {
    for (const body of [
      "<!doctype html><title>Page not found</title>",
      "",
      "{}",
      JSON.stringify({ summary: {} }),
      JSON.stringify({ summary: { structure: { items: [] } } }),
      JSON.stringify({ summary: { structure: { items: [{ component: { component_id: 7 } }] } } }),
      fixture("status/githubstatus-summary-incident.json"),
    ])
      expect(incidentIoReading(body)).toBeNull();
  });
});
