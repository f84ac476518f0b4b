/**
 * What every status-bar format shows, worked out once from the usage document: the headline (the
 * fullest meter), one level for the whole bar, and each provider's meters as plain text. Pure; the
 * formats (waybar.ts, polybar.ts, ...) only lay it out and escape it for their own markup.
 */
import { keyOfUsage } from "../../../domain/account.js";
import { notifySettings } from "../../../domain/usage-events.js";
import { withoutControls } from "../../../domain/untrusted-text.js";
import type { Meter, ProviderUsage, UsageDocument } from "../../../domain/usage-document.js";
import type { QuotabarConfig } from "../../../ports/config-store.js";
import { accountId, accountTitle } from "../../../presentation/account-name.js";
import { formatAge, formatPercent, formatQuantity, resetText } from "../../../presentation/format.js";
import { paceDeltaText, runOutText } from "../../../presentation/pace.js";
import { metersOf } from "../../../presentation/severity.js";

/** A bar's state, as waybar's CSS classes name it. Ordered from the least to the most alarming. */
export const BAR_LEVELS = ["ok", "stale", "error", "warning", "critical"] as const;
export type BarLevel = (typeof BAR_LEVELS)[number];

/** Which meter of each provider speaks for it in the bar: its fullest, or always its primary or secondary. */
export const BAR_METERS = ["auto", "primary", "secondary"] as const;
export type BarMeterChoice = (typeof BAR_METERS)[number];

export interface BarOptions {
  meter: BarMeterChoice;
  now: Date;
  /** The config's `notify` thresholds decide warning (the lowest) and critical (the highest); without them, 80 and 95. */
  config: Pick<QuotabarConfig, "notify" | "providers">;
  /** Each provider's dashboard, for the menus that link to it (SwiftBar, xbar). */
  dashboards: Readonly<Record<string, string>>;
}

export interface BarMeterLine {
  /** "Session 45% · 450 / 1,000 requests · resets in 2h 05m · 12% ahead of pace" */
  text: string;
  level: BarLevel;
}

export interface BarProvider {
  /** "claude", or "claude:work" for a named account. */
  id: string;
  name: string;
  /** The percent of the meter that speaks for it; null when it has none with a ratio. */
  percent: number | null;
  level: BarLevel;
  /** "z.ai · Pro" */
  title: string;
  meters: BarMeterLine[];
  /** Why its numbers are old or missing ("stale: updated 2h ago", "error: unauthorized: ..."). */
  problems: string[];
  dashboard: string | null;
}

export interface BarView {
  level: BarLevel;
  /** The fullest meter of all, as "zai 81%"; null when no provider has one. */
  headline: { id: string; percent: number; text: string } | null;
  /** The headline's percent as an integer 0..100 (0 without one). */
  percentage: number;
  providers: BarProvider[];
}

export function barView(doc: UsageDocument, options: BarOptions): BarView {
  const providers = doc.providers.map((p) => barProvider(p, options));
  let headline: BarView["headline"] = null;
  for (const p of providers) {
    if (p.percent !== null && (headline === null || p.percent > headline.percent))
      headline = { id: p.id, percent: p.percent, text: `${p.id} ${formatPercent(p.percent)}` };
  }
  const level =
    providers.length === 0 ? "error" : providers.map((p) => p.level).reduce((worst, next) => (rank(next) > rank(worst) ? next : worst));
  return { level, headline, percentage: headline ? Math.round(headline.percent) : 0, providers };
}

/** The more alarming of two levels. */
export const worse = (a: BarLevel, b: BarLevel): BarLevel => (rank(b) > rank(a) ? b : a);
const rank = (level: BarLevel) => BAR_LEVELS.indexOf(level);

function barProvider(p: ProviderUsage, options: BarOptions): BarProvider {
  const thresholds = notifySettings(options.config, keyOfUsage(p)).thresholds;
  const levelOf = (m: Meter): BarLevel => meterLevel(m, thresholds);
  const chosen = chosenMeter(p, options.meter);
  const problems: string[] = [];
  let level: BarLevel = chosen ? levelOf(chosen) : "ok";
  if (p.stale) {
    problems.push(`stale: the last good data${p.fetchedAt ? `, updated ${formatAge(p.fetchedAt, options.now)}` : ""}`);
    level = worse(level, "stale");
  }
  if (p.error) {
    problems.push(`${p.error.code}: ${clean(p.error.message)}`);
    // a failure with numbers to show is stale; without any, an error
    if (!p.stale) level = worse(level, "error");
  }
  const plan = p.plan ? ` · ${clean(p.plan)}` : "";
  return {
    id: clean(accountId(p)),
    name: clean(accountTitle(p)),
    percent: chosen && !chosen.unlimited ? chosen.usedPercent : null,
    level,
    title: `${clean(accountTitle(p))}${plan}`,
    meters: metersOf(p).map((m) => ({ text: meterText(m, options.now), level: levelOf(m) })),
    problems,
    dashboard: options.dashboards[p.id] ?? null,
  };
}

/** The meter that speaks for a provider: its fullest (unlimited ones never count), or the role asked for. */
function chosenMeter(p: ProviderUsage, choice: BarMeterChoice): Meter | null {
  if (choice !== "auto") return p[choice]?.usedPercent !== null ? p[choice] : null;
  let best: Meter | null = null;
  for (const m of metersOf(p)) {
    if (m.unlimited || m.usedPercent === null) continue;
    if (best === null || m.usedPercent > (best.usedPercent as number)) best = m;
  }
  return best;
}

function meterLevel(m: Meter, thresholds: readonly number[]): BarLevel {
  if (m.unlimited || m.usedPercent === null || thresholds.length === 0) return "ok";
  if (m.usedPercent >= (thresholds.at(-1) as number)) return "critical";
  if (thresholds.length > 1 && m.usedPercent >= (thresholds[0] as number)) return "warning";
  return "ok";
}

function meterText(m: Meter, now: Date): string {
  const parts = [clean(m.label)];
  if (m.unlimited) parts[0] += " unlimited";
  else if (m.usedPercent !== null) parts[0] += ` ${formatPercent(m.usedPercent)}`;
  const quantity = formatQuantity(m);
  if (quantity && !m.unlimited) parts.push(clean(quantity));
  if (m.usedPercent === null && !m.unlimited && m.note) parts.push(clean(m.note));
  const reset = resetText(m, now);
  if (reset) parts.push(reset);
  if (m.pace) parts.push(paceDeltaText(m.pace), ...(m.pace.runsOutAt ? [runOutText(m.pace, m.resetsAt, now)] : []));
  return parts.join(" · ");
}

/** Upstream text on one line, without terminal escapes or control characters: each format escapes the rest. */
export function clean(text: string): string {
  return withoutControls(text).replace(/\s+/g, " ").trim();
}

/** The colour of each level, where a bar takes a colour (i3blocks, polybar, SwiftBar/xbar). */
export const LEVEL_COLORS: Readonly<Record<BarLevel, string>> = {
  ok: "#a6e3a1",
  stale: "#9399b2",
  error: "#fab387",
  warning: "#f9e2af",
  critical: "#f38ba8",
};

/** Each provider's part of a one-line bar: "zai 81%", "claude 45% (stale)", "cursor error". */
export function compactPart(p: BarProvider): string {
  const value = p.percent !== null ? formatPercent(p.percent) : p.level === "error" ? "error" : "ok";
  return `${p.id} ${value}${p.level === "stale" ? " (stale)" : ""}`;
}

/** The multi-line detail (waybar's tooltip, the text format): a title per provider, its meters and problems indented. */
export function detailLines(view: BarView): string[] {
  if (view.providers.length === 0) return ["No provider is set up: quotabar providers lists them, quotabar demo shows one."];
  return view.providers.flatMap((p) => [p.title, ...p.meters.map((m) => `  ${m.text}`), ...p.problems.map((problem) => `  ${problem}`)]);
}
