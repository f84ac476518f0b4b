import { describe, expect, it } from "vitest";
import type { ProviderStatus } from "../../domain/usage-document.js";
import { renderStatusText } from "../../oclif-cli/render/status-text.js";
import { style } from "../../oclif-cli/render/style.js";
import { paint, statusBadge } from "../../oclif-cli/render/usage-text.js";
import { indicatorTone } from "../../presentation/severity.js";
import type { StatusReport } from "../../ports/status-feed.js";

const plain = style(false);
const NOW = new Date("2026-11-20T10:00:00.000Z");
const status = (indicator: ProviderStatus["indicator"]): ProviderStatus => ({ indicator, description: "d", url: null, incidents: [] });

describe("status badge and incident lines", () => {
  it("shows a badge for everything but none", () => {
    expect(statusBadge(null, plain)).toBe("");
    expect(statusBadge(status("none"), plain)).toBe("");
    expect(statusBadge(status("minor"), plain)).toBe(" [incident: minor]");
    expect(statusBadge(status("critical"), plain)).toBe(" [incident: critical]");
    expect(statusBadge(status("maintenance"), plain)).toBe(" [maintenance]");
  });

  it("colours major and critical in red, the rest in yellow", () => {
    const colours = style(true);
    expect(statusBadge(status("major"), colours)).toContain("\u001b[31m");
    expect(statusBadge(status("maintenance"), colours)).toContain("\u001b[33m");
    expect(paint(indicatorTone("critical"), colours)).toBe(colours.red);
    expect(paint(indicatorTone("minor"), colours)).toBe(colours.yellow);
  });
});

describe("quotabar status text", () => {
  const report = (extra: Partial<StatusReport>): StatusReport => ({
    id: "copilot",
    name: "GitHub Copilot",
    kind: "statuspage",
    url: "https://www.githubstatus.com",
    status: null,
    fetchedAt: null,
    checkedAt: null,
    cached: false,
    error: null,
    ...extra,
  });

  it("shows the last known status with the reason the latest poll failed", () => {
    const text = renderStatusText(
      [
        report({
          status: {
            indicator: "major",
            description: "Partial System Outage",
            url: "https://www.githubstatus.com",
            incidents: [{ name: "Actions delayed", impact: "major", url: "https://stspg.io/a1", updatedAt: "2026-11-20T09:30:00.000Z" }],
          },
          fetchedAt: "2026-11-20T09:40:00.000Z",
          checkedAt: "2026-11-20T09:58:00.000Z",
          cached: true,
          error: { code: "timeout", message: "www.githubstatus.com did not answer within 10 s", hint: null },
        }),
      ],
      { enabled: true },
      plain,
      NOW,
    );
    expect(text).toBe(
      [
        "GitHub Copilot [incident: major]",
        "  ● Partial System Outage",
        "  ! Actions delayed (major, updated 30m ago)",
        "    https://stspg.io/a1",
        "  ✖ timeout: www.githubstatus.com did not answer within 10 s",
        "    the status above was read 20m ago",
        "  Status page: https://www.githubstatus.com · checked 2m ago (cached)",
      ].join("\n"),
    );
  });

  it("says when status checks are off and still gives the page", () => {
    const text = renderStatusText([report({})], { enabled: false }, plain, NOW);
    expect(text).toContain("Status checks are off");
    expect(text).toContain("Status page: https://www.githubstatus.com");
    expect(text).not.toContain("checked");
  });
});
