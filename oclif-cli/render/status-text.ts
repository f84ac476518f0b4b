import type { StatusIndicator } from "../../domain/usage-document.js";
import type { StatusReport } from "../../ports/status-feed.js";
import type { Style } from "./style.js";
import { formatAge } from "../../presentation/format.js";
import { indicatorTone } from "../../presentation/severity.js";
import { paint, statusBadge } from "./usage-text.js";

/** `quotabar status`: a block per provider with the indicator, open incidents, and the page to open. */
export function renderStatusText(reports: readonly StatusReport[], settings: { enabled: boolean }, s: Style, now: Date): string {
  const blocks = reports.map((r) => renderReport(r, settings.enabled, s, now));
  if (!settings.enabled) {
    blocks.unshift(s.yellow("Status checks are off (config status.enabled is false); no status page was asked."));
  }
  return blocks.join("\n\n");
}

function renderReport(r: StatusReport, enabled: boolean, s: Style, now: Date): string {
  const lines = [`${s.bold(r.name)}${statusBadge(r.status, s)}`];
  if (r.kind === "none") {
    lines.push(`  ${s.dim("No status page.")}`);
    return lines.join("\n");
  }
  if (r.status) {
    lines.push(`  ${indicatorMark(r.status.indicator, s)} ${r.status.description}`);
    for (const incident of r.status.incidents) {
      const updated = incident.updatedAt ? `, updated ${formatAge(incident.updatedAt, now)}` : "";
      lines.push(`  ${paint(indicatorTone(incident.impact), s)(`! ${incident.name}`)}${s.dim(` (${incident.impact}${updated})`)}`);
      if (incident.url) lines.push(`    ${s.cyan(incident.url)}`);
    }
  }
  if (r.error) {
    lines.push(`  ${s.red(`✖ ${r.error.code}: ${r.error.message}`)}`);
    if (r.error.hint) lines.push(`    ${s.dim(`hint: ${r.error.hint}`)}`);
    if (r.status && r.fetchedAt) lines.push(`    ${s.dim(`the status above was read ${formatAge(r.fetchedAt, now)}`)}`);
  }
  if (r.url) lines.push(`  Status page: ${s.cyan(r.url)}${s.dim(freshness(r, enabled, now))}`);
  return lines.join("\n");
}

function indicatorMark(indicator: StatusIndicator, s: Style): string {
  return indicator === "none" ? s.green("✓") : paint(indicatorTone(indicator), s)("●");
}

function freshness(r: StatusReport, enabled: boolean, now: Date): string {
  if (r.kind === "link") return " (link only, not polled)";
  if (!enabled || !r.checkedAt) return "";
  return ` · checked ${formatAge(r.checkedAt, now)}${r.cached ? " (cached)" : ""}`;
}
