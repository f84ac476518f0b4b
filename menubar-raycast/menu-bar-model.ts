/**
 * The usage document as the menu-bar command shows it: the title, the ring and a section per
 * provider. Pure and free of `@raycast/*`; times against the `now` passed in.
 */
import { accountId, accountTitle } from "../presentation/account-name.js";
import { statusPageUrl } from "../domain/descriptor.js";
import type { KeepaliveReport } from "../domain/session-keepalive.js";
import type { ProviderUsage, UsageDocument } from "../domain/usage-document.js";
import { formatAge, formatDateTime, formatPercent } from "../presentation/format.js";
import { hasIncident, incidentLabel, incidentTone, metersOf, toneOf, type Tone } from "../presentation/severity.js";
import { PROVIDER_CATALOG } from "../providers/registry.js";
import { meterView } from "../raycast/shared/meter-view.js";
import { paceView } from "../raycast/shared/pace-view.js";
import { remedyOf, type ItemAction } from "../raycast/shared/remedy-view.js";
import { DEFAULT_TITLE, menuBarTitle, type TitleOptions } from "./menu-bar-title.js";

export { headlineOf } from "./menu-bar-title.js";

export interface MenuBarItemModel {
  title: string;
  subtitle?: string;
  tooltip?: string;
  icon: MenuIcon;
  action?: ItemAction;
}

export type MenuIcon =
  | { kind: "progress"; progress: number; tone: Tone }
  | {
      kind: "symbol";
      symbol: "warning" | "hint" | "clock" | "incident" | "globe" | "status" | "pace" | "runsOut";
      tone: Tone;
    };

export interface MenuBarSectionModel {
  id: string;
  title: string;
  items: MenuBarItemModel[];
}

export interface MenuBarModel {
  /** "81%", "40% · +11%", "runs out in 1h 40m": short, for the menu bar (see menu-bar-title.ts). Empty when nothing has a percentage. */
  title: string;
  tooltip: string;
  /** The progress ring: 0..1, its colour, and whether a status page reports an incident. */
  icon: { progress: number; tone: Tone; incident: boolean };
  sections: MenuBarSectionModel[];
}

/**
 * `picked`: the provider the title follows ("auto": all of them). `alerts`: the providers whose
 * session keepalive gave up (by id), each shown with what to do and a "Refresh Session" item.
 * `title`: what the title shows (the Menu Bar Title preferences); the ring is the same meter's.
 */
export function menuBarModel(
  document: UsageDocument | undefined,
  now: Date,
  picked = "auto",
  alerts: Readonly<Record<string, KeepaliveReport>> = {},
  title: TitleOptions = DEFAULT_TITLE,
): MenuBarModel {
  const { text, headline } = menuBarTitle(document, now, picked, title);
  const providers = document?.providers ?? [];
  const incident = providers.some((p) => hasIncident(p.status));
  const percent = headline ? (headline.meter.usedPercent as number) : 0;
  const pace = headline ? paceView(headline.meter, now) : null;
  const tooltip = headline
    ? `${accountTitle(headline.usage)} · ${headline.meter.label} ${formatPercent(percent)} used${pace ? ` · ${pace.delta} · ${pace.runOut}` : ""}`
    : providers.length === 0
      ? "Quotabar: no provider set up"
      : "Quotabar";
  return {
    title: text,
    tooltip: incident ? `${tooltip} · status incident` : tooltip,
    icon: { progress: percent / 100, tone: headline ? toneOf(percent) : "muted", incident },
    // a section per account; the keepalive's alerts are the default account's
    sections: providers.map((usage) => providerSection(usage, now, usage.account ? undefined : alerts[usage.id])),
  };
}

function providerSection(usage: ProviderUsage, now: Date, alert: KeepaliveReport | undefined): MenuBarSectionModel {
  const descriptor = PROVIDER_CATALOG.descriptor(usage.id);
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
    // under the meter: how it goes against its window, and whether it lasts to the reset
    const pace = paceView(meter, now);
    if (pace)
      items.push({
        title: pace.deltaLine,
        subtitle: pace.runOut,
        tooltip: `${pace.basis}.`,
        icon: { kind: "symbol", symbol: pace.runsOutIn === null ? "pace" : "runsOut", tone: pace.tone },
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
  if (alert?.error) {
    items.push({
      title: alert.error.message,
      ...(alert.error.hint ? { tooltip: alert.error.hint } : {}),
      icon: { kind: "symbol", symbol: "warning", tone: "critical" },
    });
  }
  // a provider whose web session is kept alive can have it renewed by hand (the default account's)
  if (descriptor?.keepsSession && !usage.account) {
    items.push({
      title: "Refresh Session",
      icon: { kind: "symbol", symbol: "clock", tone: alert ? "warning" : "normal" },
      action: { type: "refresh-session", provider: usage.id },
    });
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
  const name = accountTitle(usage);
  return { id: accountId(usage), title: usage.plan ? `${name} — ${usage.plan}` : name, items };
}
