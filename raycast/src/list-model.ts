/**
 * The usage document as the list command shows it: a row per provider with accessories and a detail
 * pane, then the providers not set up (from the core's provider listing). Pure and free of
 * `@raycast/*`; times against the `now` passed in.
 */
import { accountId, accountTitle } from "../../presentation/account-name.js";
import { statusPageUrl, type ProviderDescriptor } from "../../domain/descriptor.js";
import type { ProviderUsage, UsageDocument } from "../../domain/usage-document.js";
import type { ProviderListing } from "../../domain/usage-service.js";
import { METER_ROLES } from "../../domain/meter.js";
import type { ProviderHistory } from "../../ports/usage-history.js";
import { formatAge, formatCountdown, formatDateTime, readableTimes, textBar } from "../../presentation/format.js";
import { hasIncident, incidentLabel, incidentTone, metersOf, type Tone } from "../../presentation/severity.js";
import { PROVIDER_CATALOG } from "../../providers/registry.js";
import { canRead } from "../shared/coming-soon.js";
import { historyChart } from "../shared/history-chart.js";
import { meterView } from "../shared/meter-view.js";
import { mostAtRisk, paceView } from "../shared/pace-view.js";
import { hintFor, setupHint } from "../shared/remedy-view.js";

export interface AccessoryModel {
  text?: string;
  tag?: string;
  tone?: Tone;
  /** clock: a reset countdown; pace: how usage goes against its window; runsOut: a forecast that it runs out before the reset. */
  icon?: "clock" | "pace" | "runsOut";
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
  icon: { kind: "progress"; progress: number; tone: Tone } | { kind: "symbol"; symbol: "warning" | "circle" | "clock"; tone: Tone };
  accessories: AccessoryModel[];
  markdown: string;
  metadata: MetadataModel[];
  dashboardUrl: string | null;
  statusUrl: string | null;
  /** `quotabar -p <id>`, for "Copy CLI Command"; null for a provider the CLI cannot read yet either. */
  cliCommand: string | null;
  /** The provider's part of the document, for "Copy JSON"; null for providers not set up. */
  json: string | null;
  /** The provider's sign-in command (descriptor.signIn), offered as an action. */
  signIn: { provider: string; title: string } | null;
  /** A provider still to come: nothing to configure, refresh or copy. */
  comingSoon?: boolean;
  /** Its web session is kept alive: a "Refresh Session" action renews it by hand. */
  refreshSession?: boolean;
}

export interface ListModel {
  enabled: ListRowModel[];
  notSetUp: ListRowModel[];
  /** Providers this version cannot read yet (`supported: false`): the ones set up, and all of them when asked for. */
  comingSoon: ListRowModel[];
}

export interface ListOptions {
  /** The "Show Coming Soon" preference: list every provider still to come, not only the ones set up. */
  showComingSoon?: boolean;
  /** The kept readings of the providers' meters (`core.history()`): each meter's chart in the detail pane. */
  history?: readonly ProviderHistory[];
}

const descriptorOf = (id: string): ProviderDescriptor | undefined => PROVIDER_CATALOG.descriptor(id);
const signInOf = (descriptor: ProviderDescriptor | undefined) =>
  descriptor?.signIn ? { provider: descriptor.id, title: descriptor.signIn.title } : null;

/**
 * Enabled providers (the document's, in its order), then every other provider of the listing
 * (`listProviders()`) that this version reads. A provider whose sources have not landed is never
 * offered as something to set up: it goes to Coming Soon, listed when it is set up (a shared
 * config file may name it) or when the preference asks for all of them.
 */
export function listModel(
  document: UsageDocument | undefined,
  listing: readonly ProviderListing[],
  now: Date,
  options: ListOptions = {},
): ListModel {
  const providers = document?.providers ?? [];
  const supported = (id: string) => listing.find((l) => l.id === id)?.supported ?? canRead(id);
  const setUp = (id: string) => providers.some((p) => p.id === id) || listing.some((l) => l.id === id && l.enabled);
  // one row per account: its own history, and a provider none of whose accounts answered is one row to set up
  const historyOf = (usage: ProviderUsage) =>
    options.history?.find((h) => h.provider === usage.id && (h.account ?? null) === (usage.account ?? null));
  const enabled = providers.filter((usage) => supported(usage.id)).map((usage) => usageRow(usage, now, historyOf(usage)));
  const defaults = listing.filter((l) => (l.account ?? null) === null);
  const notSetUp = defaults.filter((l) => l.supported && !providers.some((p) => p.id === l.id)).map(notSetUpRow);
  const soon = [
    ...defaults.filter((l) => !l.supported).map((l) => ({ id: l.id, name: l.name })),
    ...providers.filter((p) => !supported(p.id) && !listing.some((l) => l.id === p.id)).map((p) => ({ id: p.id, name: p.name })),
  ];
  const comingSoon = soon
    .filter(({ id }) => options.showComingSoon === true || setUp(id))
    .map(({ id, name }) => comingSoonRow(id, name, setUp(id)));
  return { enabled, notSetUp, comingSoon };
}

export function usageRow(usage: ProviderUsage, now: Date, history?: ProviderHistory): ListRowModel {
  const descriptor = descriptorOf(usage.id);
  const primary = usage.primary ? meterView(usage.primary, now) : null;
  const accessories: AccessoryModel[] = [];
  if (usage.stale && usage.fetchedAt)
    accessories.push({ tag: "Stale", tone: "warning", tooltip: `Last updated ${formatAge(usage.fetchedAt, now)}` });
  if (usage.status && hasIncident(usage.status)) {
    accessories.push({ tag: incidentLabel(usage.status), tone: incidentTone(usage.status), tooltip: usage.status.description });
  }
  const pace = paceAccessory(usage, now);
  if (pace) accessories.push(pace);
  // one time per row: a run-out forecast says more than the reset (which the detail still shows), and a row has little room
  if (primary?.reset && primary.resetsAt && pace?.icon !== "runsOut")
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
    id: accountId(usage),
    title: accountTitle(usage),
    subtitle: usage.plan ?? (usage.error && !usage.stale ? usage.error.message : ""),
    keywords: [
      usage.id,
      ...(usage.account ? [usage.account] : []),
      ...(usage.plan ? usage.plan.split(/\s+/) : []),
      ...(usage.source ? [usage.source] : []),
    ],
    enabled: true,
    icon,
    accessories,
    markdown: usageMarkdown(usage, now, history),
    metadata: usageMetadata(usage, now),
    dashboardUrl: descriptor?.dashboardUrl ?? null,
    statusUrl: usage.status?.url ?? (descriptor ? statusPageUrl(descriptor) : null),
    cliCommand: `quotabar -p ${accountId(usage)}`,
    json: JSON.stringify(usage, null, 2),
    signIn: signInOf(descriptor),
    // the keepalive renews the default account's session (the one Raycast's preferences set)
    ...(PROVIDER_CATALOG.descriptor(usage.id)?.keepsSession && !usage.account ? { refreshSession: true } : {}),
  };
}

function notSetUpRow(listing: ProviderListing): ListRowModel {
  const descriptor = descriptorOf(listing.id);
  const lines = [`## ${listing.name}`, "Not set up yet."];
  if (descriptor) lines.push(setupHint(descriptor));
  lines.push("**Sign-in methods**", ...listing.auth.map((a) => `- ${a}`));
  return {
    id: listing.id,
    title: listing.name,
    subtitle: "Not set up",
    keywords: [listing.id],
    enabled: false,
    icon: { kind: "symbol", symbol: "circle", tone: "muted" },
    accessories: listing.unofficial ? [{ tag: "Unofficial", tone: "muted" }] : [],
    markdown: lines.join("\n\n"),
    metadata: [],
    dashboardUrl: listing.dashboardUrl,
    statusUrl: listing.status.kind === "none" ? null : listing.status.url,
    cliCommand: `quotabar -p ${listing.id}`,
    json: null,
    signIn: signInOf(descriptor),
  };
}

/** A provider still to come: what it is and that it cannot be read yet; no setup hint, sign-in or CLI command that could not work. */
function comingSoonRow(id: string, name: string, setUp: boolean): ListRowModel {
  const descriptor = descriptorOf(id);
  const lines = [
    `## ${name}`,
    `**Coming soon.** This version of Quotabar cannot read ${name} yet: there is nothing to set up for it now.`,
    setUp
      ? `Your configuration names ${name}; it is kept, and ${name} shows its usage here once a version of Quotabar can read it.`
      : `It is listed so you know it is on the way, and so a shared CLI config file that names it stays valid.`,
  ];
  return {
    id,
    title: name,
    subtitle: setUp ? "Set up · coming soon" : "Coming soon",
    keywords: [id, "coming", "soon"],
    enabled: false,
    icon: { kind: "symbol", symbol: "clock", tone: "muted" },
    accessories: descriptor?.unofficial ? [{ tag: "Unofficial", tone: "muted" }] : [],
    markdown: lines.join("\n\n"),
    metadata: [],
    dashboardUrl: descriptor?.dashboardUrl ?? null,
    statusUrl: descriptor ? statusPageUrl(descriptor) : null,
    cliCommand: null,
    json: null,
    signIn: null,
    comingSoon: true,
  };
}

/**
 * The row's pace accessory, of the provider's meter most at risk: when it runs out before its reset,
 * in how long ("out in 1h 40m", red); else how far ahead of pace or in reserve ("+11%", "−8%").
 */
function paceAccessory(usage: ProviderUsage, now: Date): AccessoryModel | null {
  const meter = mostAtRisk(metersOf(usage), (m) => m);
  const view = meter ? paceView(meter, now) : null;
  if (!meter || !view) return null;
  const tooltip = `${meter.label}: ${view.delta} · ${view.runOut}`;
  return view.runsOutIn !== null
    ? { text: `out in ${view.runsOutIn}`, icon: "runsOut", tone: view.tone, tooltip }
    : { text: view.short, icon: "pace", tone: view.tone, tooltip };
}

function usageMarkdown(usage: ProviderUsage, now: Date, history: ProviderHistory | undefined): string {
  const parts = [`## ${accountTitle(usage)}`];
  if (usage.plan) parts.push(`**${usage.plan}**`);
  for (const role of METER_ROLES) {
    const meter = usage[role];
    if (!meter) continue;
    const view = meterView(meter, now);
    const head = view.percentText ? `### ${view.label} · ${view.percentText}${meter.unlimited ? "" : " used"}` : `### ${view.label}`;
    const lines = [head];
    // the chart of its window, where readings were kept, shows how full it is and how it got there: it stands for the bar
    const chart = historyChart(
      meter,
      history?.meters.find((m) => m.meter === role),
      now,
    );
    if (chart) lines.push(chart.markdown);
    else if (view.percent !== null) lines.push(`\`${textBar(view.percent)}\``);
    const facts = [view.quantity, view.reset].filter(Boolean).join(" · ");
    if (facts) lines.push(facts);
    const pace = paceView(meter, now);
    if (pace) lines.push(pace.line);
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
    const runsOutAt = meter.pace?.runsOutAt;
    if (runsOutAt)
      items.push({
        kind: "label",
        title: `${meter.label} runs out`,
        text: `${formatDateTime(runsOutAt)} (in ${formatCountdown(runsOutAt, now)})`,
        tone: "critical",
      });
  }
  for (const detail of usage.details) items.push({ kind: "label", title: detail.label, text: readableTimes(detail.value) });
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
