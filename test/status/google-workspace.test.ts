import { describe, expect, it } from "vitest";
import { GoogleWorkspaceFeedSchema, googleWorkspaceIncidents } from "../../adapters/http/google-workspace-feed.js";
import { googleWorkspaceStatus, incidentDescription, indicatorOf } from "../../domain/status/google-workspace.js";
import { decodeJson } from "../../domain/decode-body.js";
import { fixturesOf } from "../../simulator/fixtures.js";

const fixture = fixturesOf(new URL("../../simulator/status-pages.ts", import.meta.url).href);

const GEMINI = "npdyhgECDJ6tB66MxXyo";
const PAGE = `https://www.google.com/appsstatus/dashboard/products/${GEMINI}/history`;

function parse(body: string) {
  return googleWorkspaceStatus(
    googleWorkspaceIncidents(decodeJson(body, GoogleWorkspaceFeedSchema, "Google Workspace status")),
    GEMINI,
    PAGE,
  );
}
const fromJson = (incidents: unknown[]) => parse(JSON.stringify(incidents));
const gemini = [{ title: "Gemini", id: GEMINI }];
const active = (extra: Record<string, unknown>) => ({ begin: "2026-11-20T08:00:00+00:00", end: null, affected_products: gemini, ...extra });

describe("Google Workspace incidents feed", () => {
  it("maps the reference sample: two active incidents, the second (outage) wins", () => {
    const status = fromJson([
      {
        id: "inc-1",
        begin: "2025-12-02T09:00:00+00:00",
        end: null,
        affected_products: gemini,
        most_recent_update: { when: "2025-12-02T10:00:00+00:00", status: "SERVICE_INFORMATION", text: "**Summary**\nMinor issue.\n" },
      },
      {
        id: "inc-2",
        begin: "2025-12-02T11:00:00+00:00",
        end: null,
        severity: "high",
        external_desc: "Gemini API errors",
        affected_products: gemini,
        most_recent_update: { when: "2025-12-02T12:00:00+00:00", status: "SERVICE_OUTAGE", text: "**Summary**\nGemini API error.\n" },
      },
    ]);
    expect(status.indicator).toBe("critical");
    expect(status.description).toBe("Gemini API error.");
    expect(status.url).toBe(PAGE);
    expect(status.incidents).toEqual([
      {
        name: "Gemini API errors",
        impact: "critical",
        url: "https://www.google.com/appsstatus/dashboard/incidents/inc-2",
        updatedAt: "2025-12-02T12:00:00.000Z",
      },
      {
        name: "Minor issue.",
        impact: "minor",
        url: "https://www.google.com/appsstatus/dashboard/incidents/inc-1",
        updatedAt: "2025-12-02T10:00:00.000Z",
      },
    ]);
  });

  it("reads the realistic incident fixture: only active incidents currently touching Gemini count", () => {
    const status = parse(fixture("status/google-incidents-incident.json"));
    expect(status.indicator).toBe("major");
    expect(status.description).toBe("Users may see elevated error rates when using the Gemini app and API.");
    expect(status.incidents).toEqual([
      {
        name: "Gemini users are seeing elevated error rates",
        impact: "major",
        url: "https://www.google.com/appsstatus/dashboard/incidents/Pn5sD9fG2hJ7kL3mN8qR",
        updatedAt: "2026-11-20T09:45:00.000Z",
      },
      {
        name: "Slower responses in Gemini",
        impact: "minor",
        url: "https://www.google.com/appsstatus/dashboard/incidents/Wm2cX7vB4nQ8kL1zR6tY",
        updatedAt: "2026-11-20T08:20:00.000Z",
      },
    ]);
  });

  it("is operational when Gemini incidents ended or no longer list it, whatever else is broken", () => {
    expect(parse(fixture("status/google-incidents-operational.json"))).toEqual({
      indicator: "none",
      description: "Operational",
      url: PAGE,
      incidents: [],
    });
    expect(fromJson([])).toMatchObject({ indicator: "none", incidents: [] });
  });

  it("takes the last of `updates` when there is no most_recent_update (maintenance fixture)", () => {
    const status = parse(fixture("status/google-incidents-maintenance.json"));
    expect(status.indicator).toBe("maintenance");
    expect(status.description).toBe("Maintenance is in progress; some Gemini features may be briefly unavailable.");
    expect(status.incidents[0]?.updatedAt).toBe("2026-11-21T03:01:00.000Z");
  });

  it("treats an absent end as active and a present end as over", () => {
    expect(fromJson([{ affected_products: gemini, status_impact: "SERVICE_OUTAGE" }]).indicator).toBe("critical");
    expect(fromJson([active({ end: "2026-11-20T09:00:00Z", status_impact: "SERVICE_OUTAGE" })]).indicator).toBe("none");
  });

  it("lets currently_affected_products alone decide when present, even empty", () => {
    const other = [{ title: "Gmail", id: "NBzUP9ZqH1yQv7tE4sMp" }];
    expect(fromJson([active({ currently_affected_products: [], status_impact: "SERVICE_OUTAGE" })]).indicator).toBe("none");
    expect(fromJson([active({ currently_affected_products: other, status_impact: "SERVICE_OUTAGE" })]).indicator).toBe("none");
    expect(
      fromJson([active({ affected_products: other, currently_affected_products: gemini, status_impact: "SERVICE_OUTAGE" })]).indicator,
    ).toBe("critical");
    expect(fromJson([active({ affected_products: undefined, status_impact: "SERVICE_OUTAGE" })]).indicator).toBe("none");
    expect(fromJson([active({ affected_products: other, status_impact: "SERVICE_OUTAGE" })]).indicator).toBe("none");
  });

  it("maps every status word (upper-cased) and falls back to severity, then minor", () => {
    expect(indicatorOf("AVAILABLE", "high")).toBe("none");
    expect(indicatorOf("SERVICE_INFORMATION", "high")).toBe("minor");
    expect(indicatorOf("service_disruption", null)).toBe("major");
    expect(indicatorOf("SERVICE_OUTAGE", "low")).toBe("critical");
    expect(indicatorOf("SERVICE_MAINTENANCE", null)).toBe("maintenance");
    expect(indicatorOf("Scheduled_Maintenance", null)).toBe("maintenance");
    expect(indicatorOf("SOMETHING_NEW", "low")).toBe("minor");
    expect(indicatorOf(null, "medium")).toBe("major");
    expect(indicatorOf(undefined, "HIGH")).toBe("critical");
    expect(indicatorOf("SOMETHING_NEW", "extreme")).toBe("minor");
    expect(indicatorOf(null, null)).toBe("minor");
  });

  it("uses the update's status, else status_impact, else severity", () => {
    const update = (status?: string) => ({ when: "2026-11-20T09:00:00Z", text: "x", ...(status ? { status } : {}) });
    expect(fromJson([active({ status_impact: "SERVICE_OUTAGE", most_recent_update: update("SERVICE_INFORMATION") })]).indicator).toBe(
      "minor",
    );
    expect(fromJson([active({ status_impact: "SERVICE_OUTAGE", most_recent_update: update() })]).indicator).toBe("critical");
    expect(fromJson([active({ severity: "medium", most_recent_update: update() })]).indicator).toBe("major");
    expect(fromJson([active({ updates: [update("SERVICE_OUTAGE"), update("SERVICE_INFORMATION")] })]).indicator).toBe("minor");
    expect(fromJson([active({ status_impact: "SERVICE_DISRUPTION", updates: [] })]).indicator).toBe("major");
  });

  it("keeps the worst incident, and the earlier one on a tie", () => {
    const incident = (id: string, status: string, text: string) => active({ id, most_recent_update: { status, text } });
    const worst = fromJson([
      incident("a", "SERVICE_MAINTENANCE", "Maintenance A"),
      incident("b", "SERVICE_DISRUPTION", "Disruption B"),
      incident("c", "SERVICE_DISRUPTION", "Disruption C"),
      incident("d", "SERVICE_INFORMATION", "Info D"),
    ]);
    expect(worst.indicator).toBe("major");
    expect(worst.description).toBe("Disruption B");
    expect(worst.incidents.map((i) => i.url?.split("/").at(-1))).toEqual(["b", "c", "d", "a"]);
    expect(fromJson([incident("a", "SERVICE_MAINTENANCE", "M"), incident("b", "AVAILABLE", "fine")])).toMatchObject({
      indicator: "maintenance",
      description: "M",
    });
    expect(fromJson([incident("a", "AVAILABLE", "Recovered")])).toMatchObject({
      indicator: "none",
      description: "Recovered",
      incidents: [],
    });
  });

  it("cleans the first meaningful line of the update text", () => {
    expect(incidentDescription("**Summary**\nGemini API error.\n")).toBe("Gemini API error.");
    expect(incidentDescription("\n\n  **SUMMARY:**  \nSummary\n**Description**\n- First **real** line\nsecond")).toBe("First real line");
    expect(incidentDescription("Summary\n[Gemini](https://gemini.google.com) is slow for [some users](https://x.test/a).")).toBe(
      "Gemini is slow for some users.",
    );
    expect(incidentDescription("**Description**\n-  spaced")).toBe("spaced");
    expect(incidentDescription("- - double")).toBe("- double");
    expect(incidentDescription("**Summary**\n\n")).toBeNull();
    expect(incidentDescription("")).toBeNull();
    expect(incidentDescription(null)).toBeNull();
  });

  it("falls back to external_desc for the description, then to the indicator's label", () => {
    expect(fromJson([active({ external_desc: "**Summary**\nFrom external_desc", status_impact: "SERVICE_DISRUPTION" })]).description).toBe(
      "From external_desc",
    );
    expect(fromJson([active({ status_impact: "SERVICE_DISRUPTION" })]).description).toBe("Major outage");
  });

  it("dates the incident by the update's when, else modified, else begin", () => {
    const updatedAt = (extra: Record<string, unknown>) =>
      fromJson([active({ status_impact: "SERVICE_OUTAGE", ...extra })]).incidents[0]?.updatedAt;
    expect(updatedAt({ modified: "2026-11-20T09:30:00+01:00", most_recent_update: { when: "2026-11-20T09:45:00Z" } })).toBe(
      "2026-11-20T09:45:00.000Z",
    );
    expect(updatedAt({ modified: "2026-11-20T09:30:00+01:00", most_recent_update: { text: "x" } })).toBe("2026-11-20T08:30:00.000Z");
    expect(updatedAt({})).toBe("2026-11-20T08:00:00.000Z");
    expect(updatedAt({ begin: null })).toBeNull();
  });

  it("builds incident links from uri, else id", () => {
    const url = (extra: Record<string, unknown>) => fromJson([active({ status_impact: "SERVICE_OUTAGE", ...extra })]).incidents[0]?.url;
    expect(url({ uri: "incidents/abc" })).toBe("https://www.google.com/appsstatus/dashboard/incidents/abc");
    expect(url({ uri: "/appsstatus/dashboard/incidents/xyz" })).toBe("https://www.google.com/appsstatus/dashboard/incidents/xyz");
    expect(url({ id: "q1" })).toBe("https://www.google.com/appsstatus/dashboard/incidents/q1");
    expect(url({})).toBeNull();
  });

  it("fails the whole decode on a date that does not parse, or a root that is not an array", () => {
    expect(() => parse(fixture("status/google-incidents-malformed.json"))).toThrow(/\[0\]\.begin: expected an ISO-8601 date/);
    expect(() => fromJson([active({ most_recent_update: { when: "yesterday" } })])).toThrow(/most_recent_update\.when/);
    expect(() => parse('{"error":"rate limited"}')).toThrow(/body: /);
    expect(() => fromJson([active({ affected_products: [{ title: "Gemini" }] })])).toThrow(/affected_products\[0\]\.id/);
  });
});
