import { QuotabarError } from "../../domain/errors.js";
import { meter, percentUsedFromRemaining, unlimitedMeter } from "../../domain/meter.js";
import { fromIso, overQuotaNote } from "../../domain/coerce.js";
import { monthMinutesBefore } from "../../domain/calendar-month.js";
import { advice } from "../../domain/remedy.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

/** One entry of `quota_snapshots` (premium_interactions, chat, completions, ...), numbers as given. */
export interface CopilotQuota {
  entitlement: number | null;
  /** Below zero past the quota. */
  remaining: number | null;
  /** Below zero past the quota. */
  percentRemaining: number | null;
  quotaId: string;
  unlimited: boolean;
  overageCount: number | null;
  /** Token-based billing: credits spent this period. */
  creditsUsed: number | null;
}

/** What `copilot_internal/user` said, with snake_case and camelCase already folded together. */
export interface CopilotReading {
  /** `copilot_plan` as sent (e.g. `individual`), or null. */
  plan: string | null;
  /** Snapshots by name, in the order the server sent them. */
  snapshots: Record<string, CopilotQuota>;
  /** Older free-plan counters: `monthly_quotas` (totals) and `limited_user_quotas` (what is left). */
  monthlyQuotas: { chat: number | null; completions: number | null };
  limitedUserQuotas: { chat: number | null; completions: number | null };
  /** `quota_reset_date_utc`, else `quota_reset_date`, else `limited_user_reset_date` (ISO or YYYY-MM-DD). */
  resetDate: string | null;
  tokenBasedBilling: boolean;
  /** A top-level `credits_used`, when the server puts it there rather than in a snapshot. */
  creditsUsed: number | null;
}

interface Slot {
  name: string;
  quota: CopilotQuota;
}

/**
 * Primary = premium interactions, secondary = chat, both from percent remaining, both resetting at
 * `quota_reset_date`. Placeholders are skipped; other snapshot names and the old counters fill
 * empty slots (as the real client). Token-billed seats without a meter show the plan and credits.
 */
export function copilotSnapshot(reading: CopilotReading): Snapshot {
  const { premium, chat } = selectQuotas(reading);
  const resetsAt = copilotResetTime(reading.resetDate);
  const details: Detail[] = [];

  if (!premium && !chat) {
    if (!reading.tokenBasedBilling) {
      throw new QuotabarError("upstream", "GitHub returned no Copilot quota snapshots", {
        remedies: [advice("This usually means no active Copilot subscription or no recent use; retry after a few minutes.")],
      });
    }
    details.push({ label: "Billing", value: "Token-based billing: GitHub reports no quota meters for this seat" });
  }

  const shown = new Set([premium?.name, chat?.name]);
  for (const [name, quota] of Object.entries(reading.snapshots)) {
    if (shown.has(name) || !isUsable(quota)) continue;
    details.push({
      label: quotaLabel(name),
      value: quota.unlimited ? "Unlimited" : `${percentUsedFromRemaining(percentRemaining(quota) ?? 0)}% used`,
    });
  }
  const credits = creditsUsed(reading);
  if (credits !== null) details.push({ label: "Credits used", value: String(round2(credits)) });

  // With no premium quota, chat is the only meter: it takes the primary slot so every view shows it.
  const primary = premium ? quotaMeter(premium, resetsAt) : chat ? quotaMeter(chat, resetsAt) : null;
  const secondary = premium && chat ? quotaMeter(chat, resetsAt) : null;
  return { plan: copilotPlanLabel(reading.plan), primary, secondary, tertiary: null, details };
}

function selectQuotas(reading: CopilotReading): { premium: Slot | null; chat: Slot | null } {
  const entries = Object.entries(reading.snapshots).map(([name, quota]) => ({ name, quota }));
  const usable = entries.filter((e) => isUsable(e.quota));
  let premium = usable.find((e) => e.name === "premium_interactions") ?? null;
  let chat = usable.find((e) => e.name === "chat") ?? null;
  chat ??= usable.find((e) => e.name.includes("chat") && e !== premium) ?? null;
  premium ??= usable.find((e) => /premium|completion|code/.test(e.name) && e !== chat) ?? null;
  if (!premium && !chat) chat = usable[0] ?? null;
  premium ??= counterSlot("completions", reading.monthlyQuotas.completions, reading.limitedUserQuotas.completions);
  chat ??= counterSlot("chat", reading.monthlyQuotas.chat, reading.limitedUserQuotas.chat);
  return { premium, chat };
}

/** The old free-plan counters: only when both numbers exist and the monthly total is positive. */
function counterSlot(name: string, monthly: number | null, left: number | null): Slot | null {
  if (monthly === null || left === null || monthly <= 0) return null;
  return {
    name,
    quota: {
      entitlement: monthly,
      remaining: left,
      percentRemaining: (left / monthly) * 100,
      quotaId: name,
      unlimited: false,
      overageCount: null,
      creditsUsed: null,
    },
  };
}

/** `{}`-like entries and zero-entitlement seats that are not unlimited carry no quota: no meter, not 0 %. */
function isUsable(quota: CopilotQuota): boolean {
  if (quota.unlimited) return true;
  const zero = (n: number | null) => n === null || n === 0;
  if (zero(quota.entitlement) && zero(quota.remaining) && zero(quota.percentRemaining) && quota.quotaId === "") return false;
  if (quota.entitlement === 0) return false;
  return percentRemaining(quota) !== null;
}

/** Percent remaining as GitHub says it, below zero past the quota (never clamped here). */
function percentRemaining(quota: CopilotQuota): number | null {
  if (quota.percentRemaining !== null) return quota.percentRemaining;
  if (quota.entitlement !== null && quota.entitlement > 0 && quota.remaining !== null) return (quota.remaining / quota.entitlement) * 100;
  return null;
}

/** The preferred snapshot's credits (premium, then chat, then any), else the top-level figure. */
function creditsUsed(reading: CopilotReading): number | null {
  const { premium_interactions: premium, chat, ...others } = reading.snapshots;
  const inSnapshots = [premium, chat, ...Object.values(others)].find((q) => q?.creditsUsed != null);
  return inSnapshots?.creditsUsed ?? reading.creditsUsed;
}

/**
 * Past the quota the bar stops at 100 % and the note gives the real figure; `used` never goes below
 * zero (more left than the entitlement reads as nothing used) and may exceed the limit, as it did.
 */
function quotaMeter({ name, quota }: Slot, resetsAt: string | null): Meter {
  const label = quotaLabel(name);
  if (quota.unlimited) return unlimitedMeter(label, { unit: "requests" });
  const entitlement = quota.entitlement !== null && quota.entitlement > 0 ? quota.entitlement : null;
  const used = entitlement !== null && quota.remaining !== null ? round2(Math.max(0, entitlement - quota.remaining)) : null;
  // counts below zero say "over" even when the percent was clamped at 0 by the server
  const overByCounts = entitlement !== null && used !== null && (quota.remaining ?? 0) < 0 ? (used / entitlement) * 100 : 0;
  const realPercent = round2(Math.max(100 - (percentRemaining(quota) ?? 100), overByCounts));
  const counts = entitlement !== null && used !== null ? ` (${used} of ${round2(entitlement)} requests)` : "";
  const overage = quota.overageCount !== null && quota.overageCount > 0 ? round2(quota.overageCount) : null;
  const note = overQuotaNote(realPercent, counts) ?? (overage !== null ? `${overage} requests over the monthly allowance` : null);
  return meter(label, {
    usedPercent: realPercent,
    used,
    limit: used === null ? null : entitlement,
    unit: "requests",
    resetsAt,
    // the monthly allowance: the calendar month up to quota_reset_date
    windowMinutes: monthMinutesBefore(resetsAt),
    note,
  });
}

/**
 * `quota_reset_date` as an absolute UTC time: `2026-12-01` is that midnight UTC, an ISO time without
 * a zone is UTC too (never the machine's local time); anything else (or an impossible date) is null.
 */
export function copilotResetTime(text: string | null): string | null {
  const value = text?.trim() ?? "";
  const date = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(value);
  if (!date) return null;
  const [, day, time = "00:00:00", zone = "Z"] = date;
  const utc = zone.toUpperCase() === "Z";
  const iso = fromIso(`${day}T${time}${utc ? "Z" : zone}`);
  // Date accepts 2026-02-30 as March 2; a UTC value must keep its day
  if (iso === null || (utc && iso.slice(0, 10) !== day)) return null;
  return iso;
}

const LABELS: Record<string, string> = { premium_interactions: "Premium", chat: "Chat", completions: "Completions" };

function quotaLabel(name: string): string {
  return LABELS[name] ?? capitalizeWords(name.replace(/[_-]+/g, " ").trim());
}

/**
 * The plan label as the real client cleans it: words like "plan" and "account" dropped,
 * whitespace collapsed, words capitalised (`individual` -> `Individual`, `business` -> `Business`).
 */
export function copilotPlanLabel(plan: string | null): string | null {
  if (plan === null) return null;
  const words = plan
    .replace(/[_-]+/g, " ")
    .replace(/\b(claude|codex|account|plan)\b/gi, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (words === "" || words.toLowerCase() === "unknown") return null;
  return capitalizeWords(words);
}

function capitalizeWords(text: string): string {
  return text.replace(/(^|\s)([a-z])/g, (_, space: string, letter: string) => `${space}${letter.toUpperCase()}`);
}

const round2 = (n: number) => Math.round(n * 100) / 100;
