import type { StatusReport } from "../../ports/status-feed.js";
import type { Style } from "./style.js";
import { formatAge, statusBadge } from "./usage-text.js";

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
    const mark =
      r.status.indicator === "none"
        ? s.green("✓")
        : r.status.indicator === "minor" || r.status.indicator === "maintenance"
          ? s.yellow("●")
          : s.red("●");
    lines.push(`  ${mark} ${r.status.description}`);
    for (const incident of r.status.incidents) {
      const updated = incident.updatedAt ? `, updated ${formatAge(incident.updatedAt, now)} ago` : "";
      lines.push(`  ${s.yellow(`! ${incident.name}`)}${s.dim(` (${incident.impact}${updated})`)}`);
      if (incident.url) lines.push(`    ${s.cyan(incident.url)}`);
    }
  }
  if (r.error) {
    const previous = r.status && r.fetchedAt ? ` Showing the status from ${formatAge(r.fetchedAt, now)} ago.` : "";
    lines.push(`  ${s.red(`✖ ${r.error.code}: ${r.error.message}`)}${previous}`);
    if (r.error.hint) lines.push(`    ${s.dim(`hint: ${r.error.hint}`)}`);
  }
  const page = r.url ? `Status page: ${s.cyan(r.url)}` : "";
  const note =
    r.kind === "link"
      ? " (link only, not polled)"
      : !enabled
        ? ""
        : r.checkedAt
          ? ` · checked ${formatAge(r.checkedAt, now)} ago${r.cached ? " (cached)" : ""}`
          : "";
  if (page) lines.push(`  ${page}${s.dim(note)}`);
  return lines.join("\n");
}
