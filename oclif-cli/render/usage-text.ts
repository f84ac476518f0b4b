import type { Meter, ProviderStatus, ProviderUsage, UsageDocument } from "../../domain/usage-document.js";
import { accountTitle } from "../../presentation/account-name.js";
import { formatAge, formatPercent, formatQuantity, readableTimes, resetText, textBar } from "../../presentation/format.js";
import { paceDeltaText, paceTone, runOutText } from "../../presentation/pace.js";
import { indicatorTone, meterTone, metersOf, type Tone } from "../../presentation/severity.js";
import type { Style } from "./style.js";

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

/** A tone in the terminal's colours. */
export function paint(tone: Tone, s: Style): (text: string) => string {
  return tone === "critical" ? s.red : tone === "warning" || tone === "muted" ? s.yellow : s.green;
}

function renderProvider(p: ProviderUsage, s: Style, now: Date): string {
  const lines: string[] = [];
  const plan = p.plan ? s.dim(` · ${p.plan}`) : "";
  lines.push(`${s.bold(accountTitle(p))}${plan}${statusBadge(p.status, s)}`);
  const meters = metersOf(p);
  const labelWidth = Math.max(0, ...meters.map((m) => m.label.length));
  for (const m of meters) lines.push(...renderMeter(m, labelWidth, s, now));
  for (const d of p.details) lines.push(`  ${s.dim(`${d.label}:`)} ${readableTimes(d.value)}`);
  if (p.stale && p.fetchedAt) lines.push(`  ${s.yellow(`⚠ stale: showing the last good data (updated ${formatAge(p.fetchedAt, now)})`)}`);
  if (p.error) {
    lines.push(`  ${s.red(`✖ ${p.error.code}: ${p.error.message}`)}`);
    if (p.error.hint) lines.push(`    ${s.dim(`hint: ${p.error.hint}`)}`);
  }
  if (p.status && p.status.indicator !== "none") {
    for (const incident of p.status.incidents)
      lines.push(`  ${paint(indicatorTone(incident.impact), s)(`! ${incident.name}`)}${s.dim(` (${incident.impact})`)}`);
    if (p.status.incidents.length === 0) lines.push(`  ${s.yellow(`! ${p.status.description}`)}`);
  }
  return lines.join("\n");
}

function renderMeter(m: Meter, labelWidth: number, s: Style, now: Date): string[] {
  const label = m.label.padEnd(labelWidth);
  const reset = resetText(m, now);
  const suffix = reset ? ` · ${reset}` : "";
  if (m.unlimited) return [`  ${label}  ${s.green(textBar(100))}  Unlimited${suffix}`];
  if (m.usedPercent === null) return [`  ${label}  ${m.note ?? "no ratio reported"}`];
  const quantity = formatQuantity(m);
  const pct = formatPercent(m.usedPercent, 1).padStart(6);
  const lines = [`  ${label}  ${paint(meterTone(m), s)(textBar(m.usedPercent))} ${pct}${quantity ? `  ${quantity}` : ""}${suffix}`];
  if (m.note) lines.push(`  ${" ".repeat(labelWidth)}  ${s.dim(readableTimes(m.note))}`);
  if (m.pace) {
    const run = runOutText(m.pace, m.resetsAt, now);
    lines.push(
      `  ${" ".repeat(labelWidth)}  ${paint(paceTone(m.pace), s)(paceDeltaText(m.pace))} · ${m.pace.runsOutAt ? s.red(run) : run}`,
    );
  }
  return lines;
}

/** `[incident: major]` / `[maintenance]` after a provider name; nothing when all is well. */
export function statusBadge(status: ProviderStatus | null, s: Style): string {
  if (!status || status.indicator === "none") return "";
  const text = status.indicator === "maintenance" ? "maintenance" : `incident: ${status.indicator}`;
  return ` ${paint(indicatorTone(status.indicator), s)(`[${text}]`)}`;
}
