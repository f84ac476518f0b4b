/**
 * The usage document turned into what the Raycast views show: menu-bar title and sections, list
 * rows, accessories and the detail pane. Pure and free of `@raycast/*`, so it is tested plainly and
 * the components stay thin. Times are computed against the `now` passed in.
 */
import { DESCRIPTORS } from "../../domain/providers/catalog.js";
import { statusPageUrl, type ProviderDescriptor } from "../../domain/providers/descriptor.js";
import { formatCountdown } from "../../domain/time.js";
import type { Meter, ProviderStatus, ProviderUsage, UsageDocument } from "../../domain/usage-document.js";
import { credentialPreferenceOf } from "./preferences.js";

/** Colour intent; the components map it to Raycast colours. */
export type Tone = "normal" | "warning" | "critical" | "muted";

export const WARNING_PERCENT = 70;
export const CRITICAL_PERCENT = 90;

/** What a click does; the components turn it into `open`, `openExtensionPreferences`, ... */
export type ItemAction = { type: "open"; url: string } | { type: "configure" } | { type: "login" };

export function toneOf(percent: number | null): Tone {
  if (percent === null) return "muted";
  if (percent >= CRITICAL_PERCENT) return "critical";
  if (percent >= WARNING_PERCENT) return "warning";
  return "normal";
}

/** "37%", "<1%", "99%" (never a rounded-up 100% that is not full). */
export function formatPercent(percent: number): string {
  if (percent > 0 && percent < 0.5) return "<1%";
  if (percent >= 99.5 && percent < 100) return "99%";
  return `${Math.round(percent)}%`;
}

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/** 1,215 · 112.5 · 23.5M: readable numbers of a quantity. */
export function formatAmount(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${decimal.format(value / 1e9)}B`;
  if (abs >= 1e6) return `${decimal.format(value / 1e6)}M`;
  if (abs >= 1e5) return `${decimal.format(value / 1e3)}K`;
  return Number.isInteger(value) ? integer.format(value) : decimal.format(value);
}

/** "$22.42 / $60.00", "1,215 / 1,500 credits", "312 calls"; null when the provider gave no quantity. */
export function formatQuantity(meter: Meter): string | null {
  if (meter.used === null && meter.limit === null) return null;
  if (meter.unit === "USD") {
    const usd = (v: number) => `$${v.toFixed(2)}`;
    if (meter.used !== null && meter.limit !== null) return `${usd(meter.used)} / ${usd(meter.limit)}`;
    return usd((meter.used ?? meter.limit) as number);
  }
  const unit = meter.unit ? ` ${meter.unit}` : "";
  if (meter.used !== null && meter.limit !== null) return `${formatAmount(meter.used)} / ${formatAmount(meter.limit)}${unit}`;
  if (meter.used !== null) return `${formatAmount(meter.used)}${unit} used`;
  return `limit ${formatAmount(meter.limit as number)}${unit}`;
}

/** "5m ago", "2h ago", "3d ago". */
export function formatAge(iso: string, now: Date): string {
  const ms = now.getTime() - new Date(iso).getTime();
  if (!Number.isFinite(ms)) return "";
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

/** "Dec 1, 00:00 UTC": the absolute reset time for tooltips. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  const month = date.toLocaleString("en-US", { month: "short", timeZone: "UTC" });
  const time = date.toISOString().slice(11, 16);
  return `${month} ${date.getUTCDate()}, ${time} UTC`;
}

export interface MeterView {
  label: string;
  /** 0..100 for a progress ring; unlimited meters are shown full. */
  percent: number | null;
  /** "37%", "Unlimited", or "" when the provider gives no ratio. */
  percentText: string;
  quantity: string | null;
  /** "resets in 3d 4h" */
  reset: string | null;
  resetsAt: string | null;
  note: string | null;
  tone: Tone;
}

export function meterView(meter: Meter, now: Date): MeterView {
  const percent = meter.unlimited ? 100 : meter.usedPercent;
  return {
    label: meter.label,
    percent,
    percentText: meter.unlimited ? "Unlimited" : meter.usedPercent === null ? "" : formatPercent(meter.usedPercent),
    quantity: formatQuantity(meter),
    reset: meter.resetsAt ? `resets in ${formatCountdown(meter.resetsAt, now)}` : null,
    resetsAt: meter.resetsAt,
    note: meter.note && meter.note !== "Unlimited" ? meter.note : null,
    tone: meter.unlimited ? "normal" : toneOf(meter.usedPercent),
  };
}

export function metersOf(usage: ProviderUsage): Meter[] {
  return [usage.primary, usage.secondary, usage.tertiary].filter((m): m is Meter => m !== null);
}

/** The fullest meter of a provider (unlimited ones never count as full). */
export function fullestMeter(usage: ProviderUsage): Meter | null {
  let best: Meter | null = null;
  for (const meter of metersOf(usage)) {
    if (meter.unlimited || meter.usedPercent === null) continue;
    if (best === null || meter.usedPercent > (best.usedPercent as number)) best = meter;
  }
  return best;
}

/** A status page that reports anything but "all systems operational". */
export function hasIncident(status: ProviderStatus | null): boolean {
  return status !== null && (status.indicator !== "none" || status.incidents.length > 0);
}

export function incidentLabel(status: ProviderStatus): string {
  return status.indicator === "maintenance" ? "Maintenance" : "Incident";
}

export function incidentTone(status: ProviderStatus): Tone {
  if (status.indicator === "major" || status.indicator === "critical") return "critical";
  if (status.indicator === "maintenance") return "muted";
  return "warning";
}

export function descriptorOf(id: string): ProviderDescriptor | undefined {
  return DESCRIPTORS.find((d) => d.id === id);
}

const REJECTED: readonly string[] = ["unauthorized", "forbidden", "expired"];

/** Sentences of a core hint that speak to CLI users (env variables, `quotabar config`, config paths). */
const CLI_ONLY = /`quotabar |\bquotabar config\b|providers\[|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/;

/** The core's hint without what only applies on the command line; null when nothing is left. */
export function withoutCliAdvice(hint: string | null): string | null {
  if (hint === null) return null;
  const kept = hint.split(/(?<=[.!?])\s+/).filter((sentence) => !CLI_ONLY.test(sentence));
  return kept.length > 0 ? kept.join(" ") : null;
}

/** The hint worth showing in Raycast: a missing or rejected credential points at where it goes in Raycast. */
export function hintFor(usage: ProviderUsage): string | null {
  if (usage.error === null) return null;
  if (usage.error.code === "not_configured") return setupHint(usage.id) ?? withoutCliAdvice(usage.error.hint);
  const hint = withoutCliAdvice(usage.error.hint);
  const preference = credentialPreferenceOf(usage.id);
  if (REJECTED.includes(usage.error.code) && preference) {
    const where =
      usage.id === "copilot"
        ? "Sign in to GitHub Copilot again, or update the token in Preferences."
        : `Update your ${preference.title} in Preferences.`;
    return hint ? `${hint} ${where}` : where;
  }
  return hint;
}

/** The menu line that says what to do about an error, and what clicking it does. */
export function remedyOf(usage: ProviderUsage): { title: string; tooltip?: string; action?: ItemAction } | null {
  if (usage.error === null) return null;
  const hint = hintFor(usage);
  const preference = credentialPreferenceOf(usage.id);
  const tooltip = hint ? { tooltip: hint } : {};
  if (usage.error.code === "not_configured" || REJECTED.includes(usage.error.code)) {
    const again = usage.error.code === "not_configured" ? "" : " Again";
    if (usage.id === "copilot") return { title: `Sign In to GitHub Copilot${again}…`, ...tooltip, action: { type: "login" } };
    if (preference) {
      const verb = usage.error.code === "not_configured" ? "Add" : "Update";
      return { title: `${verb} Your ${preference.title} in Preferences…`, ...tooltip, action: { type: "configure" } };
    }
  }
  return hint ? { title: shorten(hint, 64), ...tooltip } : null;
}

/** At most `max` characters, cut at a word, with an ellipsis. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, "")}…`;
}

/** How to set a provider up from Raycast. */
export function setupHint(id: string): string | null {
  if (id === "copilot") return "Run “Sign In to GitHub Copilot”, or paste a token in Preferences.";
  const preference = credentialPreferenceOf(id);
  if (preference) return `Add your ${preference.title} in Preferences.`;
  const descriptor = descriptorOf(id);
  return descriptor ? `Found automatically: ${descriptor.auth.join("; ")}.` : null;
}

// ---------------------------------------------------------------- menu bar

export interface MenuBarItemModel {
  title: string;
  subtitle?: string;
  tooltip?: string;
  icon: MenuIcon;
  action?: ItemAction;
}

export type MenuIcon =
  | { kind: "progress"; progress: number; tone: Tone }
  | { kind: "symbol"; symbol: "warning" | "hint" | "clock" | "incident" | "globe" | "status"; tone: Tone };

export interface MenuBarSectionModel {
  id: string;
  title: string;
  items: MenuBarItemModel[];
}

export interface MenuBarModel {
  /** "81%" — short, for the menu bar. Empty when nothing has a percentage. */
  title: string;
  tooltip: string;
  /** The progress ring: 0..1, its colour, and whether a status page reports an incident. */
  icon: { progress: number; tone: Tone; incident: boolean };
  sections: MenuBarSectionModel[];
}

/**
 * The menu-bar title follows the provider picked in preferences, else the most used meter among
 * the enabled providers (the document holds exactly those).
 */
export function headlineOf(document: UsageDocument | undefined, picked = "auto"): { usage: ProviderUsage; meter: Meter } | null {
  const providers = document?.providers ?? [];
  const candidates = picked !== "auto" && picked !== "" ? providers.filter((p) => p.id === picked) : providers;
  let best: { usage: ProviderUsage; meter: Meter } | null = null;
  for (const usage of candidates) {
    const meter = fullestMeter(usage);
    if (meter && (best === null || (meter.usedPercent as number) > (best.meter.usedPercent as number))) best = { usage, meter };
  }
  return best;
}

export function menuBarModel(document: UsageDocument | undefined, now: Date, picked = "auto"): MenuBarModel {
  const headline = headlineOf(document, picked);
  const providers = document?.providers ?? [];
  const incident = providers.some((p) => hasIncident(p.status));
  const percent = headline ? (headline.meter.usedPercent as number) : 0;
  const tooltip = headline
    ? `${headline.usage.name} · ${headline.meter.label} ${formatPercent(percent)} used`
    : providers.length === 0
      ? "Quotabar: no provider set up"
      : "Quotabar";
  return {
    title: headline ? formatPercent(percent) : "",
    tooltip: incident ? `${tooltip} · status incident` : tooltip,
    icon: { progress: percent / 100, tone: headline ? toneOf(percent) : "muted", incident },
    sections: providers.map((usage) => providerSection(usage, now)),
  };
}

function providerSection(usage: ProviderUsage, now: Date): MenuBarSectionModel {
  const descriptor = descriptorOf(usage.id);
  const items: MenuBarItemModel[] = [];
  const dashboard = descriptor ? { type: "open" as const, url: descriptor.dashboardUrl } : undefined;
  for (const meter of metersOf(usage)) {
    const view = meterView(meter, now);
    const subtitle = [view.quantity, view.reset].filter(Boolean).join(" · ");
    items.push({
      title: view.percentText ? `${view.label}: ${view.percentText}` : view.label,
      ...(subtitle || view.note ? { subtitle: subtitle || (view.note as string) } : {}),
      ...(view.note && subtitle ? { tooltip: view.note } : view.resetsAt ? { tooltip: `Resets ${formatDateTime(view.resetsAt)}` } : {}),
      icon: { kind: "progress", progress: (view.percent ?? 0) / 100, tone: view.tone },
      ...(dashboard ? { action: dashboard } : {}),
    });
  }
  if (usage.stale && usage.fetchedAt) {
    items.push({ title: `Stale · updated ${formatAge(usage.fetchedAt, now)}`, icon: { kind: "symbol", symbol: "clock", tone: "warning" } });
  }
  if (usage.error) {
    const remedy = remedyOf(usage);
    items.push({
      title: usage.error.message,
      ...(remedy?.tooltip ? { tooltip: remedy.tooltip } : {}),
      icon: { kind: "symbol", symbol: "warning", tone: usage.stale ? "warning" : "critical" },
    });
    if (remedy) items.push({ ...remedy, icon: { kind: "symbol", symbol: "hint", tone: "muted" } });
  }
  if (usage.status && hasIncident(usage.status)) {
    const status = usage.status;
    const statusUrl = status.url ?? (descriptor ? statusPageUrl(descriptor) : null);
    const incidents = status.incidents.length > 0 ? status.incidents : [{ name: status.description, impact: status.indicator, url: null }];
    for (const incident of incidents) {
      const url = incident.url ?? statusUrl;
      items.push({
        title: `${incidentLabel(status)}: ${incident.name}`,
        subtitle: incident.impact,
        icon: { kind: "symbol", symbol: "incident", tone: incidentTone(status) },
        ...(url ? { action: { type: "open" as const, url } } : {}),
      });
    }
    // the host as subtitle keeps two providers' View Status items apart (identical items misfire in Raycast)
    if (statusUrl)
      items.push({
        title: "View Status",
        subtitle: new URL(statusUrl).host,
        icon: { kind: "symbol", symbol: "status", tone: "normal" },
        action: { type: "open", url: statusUrl },
      });
  }
  if (descriptor) {
    items.push({
      title: `Open ${descriptor.name} Dashboard`,
      icon: { kind: "symbol", symbol: "globe", tone: "normal" },
      action: { type: "open", url: descriptor.dashboardUrl },
    });
  }
  return { id: usage.id, title: usage.plan ? `${usage.name} — ${usage.plan}` : usage.name, items };
}

// ---------------------------------------------------------------- list

export interface AccessoryModel {
  text?: string;
  tag?: string;
  tone?: Tone;
  icon?: "clock";
  tooltip?: string;
}

export type MetadataModel =
  | { kind: "label"; title: string; text: string; tone?: Tone }
  | { kind: "link"; title: string; text: string; target: string }
  | { kind: "tags"; title: string; tags: { text: string; tone: Tone }[] }
  | { kind: "separator" };

export interface ListRowModel {
  id: string;
  title: string;
  subtitle: string;
  keywords: string[];
  enabled: boolean;
  icon: { kind: "progress"; progress: number; tone: Tone } | { kind: "symbol"; symbol: "warning" | "circle"; tone: Tone };
  accessories: AccessoryModel[];
  markdown: string;
  metadata: MetadataModel[];
  dashboardUrl: string | null;
  statusUrl: string | null;
  cliCommand: string;
  /** The provider's part of the document, for "Copy JSON"; null for providers not set up. */
  json: string | null;
}

export interface ListModel {
  enabled: ListRowModel[];
  notSetUp: ListRowModel[];
}

/** Enabled providers (the document's, in its order), then every other provider of the catalog. */
export function listModel(document: UsageDocument | undefined, now: Date): ListModel {
  const providers = document?.providers ?? [];
  const enabled = providers.map((usage) => usageRow(usage, now));
  const notSetUp = DESCRIPTORS.filter((d) => !providers.some((p) => p.id === d.id)).map(notSetUpRow);
  return { enabled, notSetUp };
}

export function usageRow(usage: ProviderUsage, now: Date): ListRowModel {
  const descriptor = descriptorOf(usage.id);
  const primary = usage.primary ? meterView(usage.primary, now) : null;
  const accessories: AccessoryModel[] = [];
  if (usage.stale && usage.fetchedAt)
    accessories.push({ tag: "Stale", tone: "warning", tooltip: `Last updated ${formatAge(usage.fetchedAt, now)}` });
  if (usage.status && hasIncident(usage.status)) {
    accessories.push({ tag: incidentLabel(usage.status), tone: incidentTone(usage.status), tooltip: usage.status.description });
  }
  if (primary?.reset && primary.resetsAt)
    accessories.push({
      text: primary.reset.replace("resets in ", ""),
      icon: "clock",
      tooltip: `Resets ${formatDateTime(primary.resetsAt)}`,
    });
  if (primary?.percentText) accessories.push({ text: primary.percentText, tone: primary.tone, tooltip: `${primary.label} used` });
  if (descriptor?.unofficial) accessories.push({ tag: "Unofficial", tone: "muted" });

  const icon: ListRowModel["icon"] =
    usage.error && !usage.stale
      ? { kind: "symbol", symbol: "warning", tone: "critical" }
      : { kind: "progress", progress: (primary?.percent ?? 0) / 100, tone: primary?.tone ?? "muted" };
  return {
    id: usage.id,
    title: usage.name,
    subtitle: usage.plan ?? (usage.error && !usage.stale ? usage.error.message : ""),
    keywords: [usage.id, ...(usage.plan ? usage.plan.split(/\s+/) : []), ...(usage.source ? [usage.source] : [])],
    enabled: true,
    icon,
    accessories,
    markdown: usageMarkdown(usage, now),
    metadata: usageMetadata(usage, now),
    dashboardUrl: descriptor?.dashboardUrl ?? null,
    statusUrl: usage.status?.url ?? (descriptor ? statusPageUrl(descriptor) : null),
    cliCommand: `quotabar -p ${usage.id}`,
    json: JSON.stringify(usage, null, 2),
  };
}

function notSetUpRow(descriptor: ProviderDescriptor): ListRowModel {
  const hint = setupHint(descriptor.id);
  return {
    id: descriptor.id,
    title: descriptor.name,
    subtitle: "Not set up",
    keywords: [descriptor.id],
    enabled: false,
    icon: { kind: "symbol", symbol: "circle", tone: "muted" },
    accessories: descriptor.unofficial ? [{ tag: "Unofficial", tone: "muted" }] : [],
    markdown: [`## ${descriptor.name}`, "Not set up yet.", hint ?? "", "**Sign-in methods**", ...descriptor.auth.map((a) => `- ${a}`)].join(
      "\n\n",
    ),
    metadata: [],
    dashboardUrl: descriptor.dashboardUrl,
    statusUrl: statusPageUrl(descriptor),
    cliCommand: `quotabar -p ${descriptor.id}`,
    json: null,
  };
}

/** `██████░░░░░░░░░░░░░░` — a text bar for the detail pane's markdown. */
export function textBar(percent: number, width = 20): string {
  const filled = Math.round((Math.min(100, Math.max(0, percent)) / 100) * width);
  return "█".repeat(filled) + "░".repeat(width - filled);
}

function usageMarkdown(usage: ProviderUsage, now: Date): string {
  const parts = [`## ${usage.name}`];
  if (usage.plan) parts.push(`**${usage.plan}**`);
  for (const meter of metersOf(usage)) {
    const view = meterView(meter, now);
    const head = view.percentText ? `### ${view.label} · ${view.percentText}${meter.unlimited ? "" : " used"}` : `### ${view.label}`;
    const lines = [head];
    if (view.percent !== null) lines.push(`\`${textBar(view.percent)}\``);
    const facts = [view.quantity, view.reset].filter(Boolean).join(" · ");
    if (facts) lines.push(facts);
    if (view.note) lines.push(`_${view.note}_`);
    parts.push(lines.join("\n\n"));
  }
  if (usage.error) {
    const hint = hintFor(usage);
    parts.push(`> ⚠️ ${usage.error.message}${hint ? `\n>\n> ${hint}` : ""}`);
  }
  return parts.join("\n\n");
}

function usageMetadata(usage: ProviderUsage, now: Date): MetadataModel[] {
  const items: MetadataModel[] = [];
  if (usage.plan) items.push({ kind: "label", title: "Plan", text: usage.plan });
  for (const meter of metersOf(usage)) {
    if (meter.resetsAt)
      items.push({
        kind: "label",
        title: `${meter.label} resets`,
        text: `${formatDateTime(meter.resetsAt)} (in ${formatCountdown(meter.resetsAt, now)})`,
      });
  }
  for (const detail of usage.details) items.push({ kind: "label", title: detail.label, text: detail.value });
  if (usage.status) {
    items.push({ kind: "separator" });
    const status = usage.status;
    const tone: Tone = hasIncident(status) ? incidentTone(status) : "normal";
    items.push({
      kind: "tags",
      title: "Status",
      tags: [{ text: status.description || (hasIncident(status) ? incidentLabel(status) : "Operational"), tone }],
    });
    for (const incident of status.incidents) {
      const text = `${incident.name} (${incident.impact})`;
      if (incident.url) items.push({ kind: "link", title: incidentLabel(status), text, target: incident.url });
      else items.push({ kind: "label", title: incidentLabel(status), text });
    }
    if (status.url) items.push({ kind: "link", title: "Status page", text: new URL(status.url).host, target: status.url });
  }
  items.push({ kind: "separator" });
  if (usage.source) items.push({ kind: "label", title: "Source", text: usage.source });
  if (usage.fetchedAt) {
    items.push({
      kind: "label",
      title: usage.stale ? "Last good fetch" : "Fetched",
      text: `${formatDateTime(usage.fetchedAt)} (${formatAge(usage.fetchedAt, now)})`,
      ...(usage.stale ? { tone: "warning" as const } : {}),
    });
  }
  if (usage.error)
    items.push({
      kind: "label",
      title: "Error",
      text: `${usage.error.code}: ${usage.error.message}`,
      tone: usage.stale ? "warning" : "critical",
    });
  return items;
}

// ---------------------------------------------------------------- refresh policy

/** A user opening the menu sees cached data; it is refetched when older than this. */
export const FRESH_FOR_MS = 60_000;

/** Background launches always fetch; a user launch only when the cached document is missing or old. */
export function shouldFetch(cached: UsageDocument | undefined, now: Date, background: boolean): boolean {
  if (background || cached === undefined) return true;
  return now.getTime() - new Date(cached.generatedAt).getTime() > FRESH_FOR_MS;
}
