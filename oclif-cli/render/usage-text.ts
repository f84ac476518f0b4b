import { formatCountdown } from "../../domain/time.js";
import type { Meter, ProviderStatus, ProviderUsage, UsageDocument } from "../../domain/usage-document.js";
import type { Style } from "./style.js";

const BAR_WIDTH = 20;

/** The text view: a block per provider with plan, meters as bars, details, and errors with their hint. */
export function renderUsageText(doc: UsageDocument, s: Style, now: Date): string {
  if (doc.providers.length === 0) {
    return [
      "No providers are enabled and no credentials were found.",
      "Add a key with `quotabar config set-key <id> --stdin` or set e.g. OPENROUTER_API_KEY; `quotabar providers` lists them all.",
      "Try `quotabar demo` to see what it looks like.",
    ].join("\n");
  }
  return doc.providers.map((p) => renderProvider(p, s, now)).join("\n\n");
}

function renderProvider(p: ProviderUsage, s: Style, now: Date): string {
  const lines: string[] = [];
  const plan = p.plan ? s.dim(` · ${p.plan}`) : "";
  lines.push(`${s.bold(p.name)}${plan}${statusBadge(p.status, s)}`);
  const meters = [p.primary, p.secondary, p.tertiary].filter((m): m is Meter => m !== null);
  const labelWidth = Math.max(0, ...meters.map((m) => m.label.length));
  for (const m of meters) lines.push(...renderMeter(m, labelWidth, s, now));
  for (const d of p.details) lines.push(`  ${s.dim(`${d.label}:`)} ${d.value}`);
  if (p.stale && p.fetchedAt) lines.push(`  ${s.yellow(`⚠ stale: last good data from ${formatAge(p.fetchedAt, now)} ago`)}`);
  if (p.error) {
    lines.push(`  ${s.red(`✖ ${p.error.code}: ${p.error.message}`)}`);
    if (p.error.hint) lines.push(`    ${s.dim(`hint: ${p.error.hint}`)}`);
  }
  if (p.status && p.status.indicator !== "none") {
    for (const incident of p.status.incidents)
      lines.push(`  ${incidentColour(incident.impact, s)(`! ${incident.name}`)}${s.dim(` (${incident.impact})`)}`);
    if (p.status.incidents.length === 0) lines.push(`  ${s.yellow(`! ${p.status.description}`)}`);
  }
  return lines.join("\n");
}

function renderMeter(m: Meter, labelWidth: number, s: Style, now: Date): string[] {
  const label = m.label.padEnd(labelWidth);
  if (m.unlimited) return [`  ${label}  ${s.green(bar(100))}  Unlimited${suffix(m, now)}`];
  if (m.usedPercent === null) return [`  ${label}  ${m.note ?? "no ratio reported"}`];
  const colour = m.usedPercent >= 90 ? s.red : m.usedPercent >= 70 ? s.yellow : s.green;
  const pct = `${formatPercent(m.usedPercent)}%`.padStart(6);
  const lines = [`  ${label}  ${colour(bar(m.usedPercent))} ${pct}${quantity(m)}${suffix(m, now)}`];
  if (m.note) lines.push(`  ${" ".repeat(labelWidth)}  ${s.dim(m.note)}`);
  return lines;
}

function bar(percent: number): string {
  const filled = Math.round((percent / 100) * BAR_WIDTH);
  return `${"█".repeat(filled)}${"░".repeat(BAR_WIDTH - filled)}`;
}

function quantity(m: Meter): string {
  if (m.used === null || m.limit === null) return "";
  const unit = m.unit === "USD" ? "" : m.unit ? ` ${m.unit}` : "";
  const fmt = (n: number) => (m.unit === "USD" ? `$${n.toFixed(2)}` : formatNumber(n));
  return `  ${fmt(m.used)}/${fmt(m.limit)}${unit}`;
}

function suffix(m: Meter, now: Date): string {
  if (!m.resetsAt) return "";
  return new Date(m.resetsAt).getTime() <= now.getTime() ? " · reset due" : ` · resets in ${formatCountdown(m.resetsAt, now)}`;
}

/** `[incident: major]` / `[maintenance]` after a provider name; nothing when all is well. */
export function statusBadge(status: ProviderStatus | null, s: Style): string {
  if (!status || status.indicator === "none") return "";
  const text = status.indicator === "maintenance" ? "maintenance" : `incident: ${status.indicator}`;
  return ` ${status.indicator === "minor" || status.indicator === "maintenance" ? s.yellow(`[${text}]`) : s.red(`[${text}]`)}`;
}

/** Major and critical incidents in red, the rest (minor, maintenance, unknown) in yellow. */
export function incidentColour(impact: string, s: Style): (text: string) => string {
  return impact === "major" || impact === "critical" ? s.red : s.yellow;
}

export function formatPercent(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString("en-US") : value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

export function formatAge(iso: string, now: Date): string {
  const minutes = Math.max(0, Math.round((now.getTime() - new Date(iso).getTime()) / 60_000));
  if (minutes < 1) return "less than a minute";
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h ${minutes % 60}m`;
  return `${Math.floor(hours / 24)}d`;
}
