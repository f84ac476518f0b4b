import { QuotabarError } from "../../domain/errors.js";
import { clamp, meter, percentUsedFromRemaining, unlimitedMeter } from "../../domain/meter.js";
import { fromIso } from "../../domain/coerce.js";
import { advice } from "../../domain/remedy.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

/** One entry of `quota_snapshots` (premium_interactions, chat, completions, ...), numbers as given. */
export interface CopilotQuota {
  entitlement: number | null;
  remaining: number | null;
  percentRemaining: number | null;
  quotaId: string;
  unlimited: boolean;
  overageCount: number | null;
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
}

interface Slot {
  name: string;
  quota: CopilotQuota;
}

/**
 * Primary = premium interactions, secondary = chat, both from percent remaining.
 * Placeholders are skipped; other snapshot names and the old counters fill empty slots (as the real client).
 */
export function copilotSnapshot(reading: CopilotReading): Snapshot {
  const { premium, chat } = selectQuotas(reading);
  const resetsAt = fromIso(reading.resetDate);
  const details: Detail[] = [];

  if (!premium && !chat) {
    if (!reading.tokenBasedBilling) {
      throw new QuotabarError("upstream", "GitHub returned no Copilot quota snapshots", {
        remedies: [advice("This usually means no active Copilot subscription or no recent use; retry after a few minutes.")],
      });
    }
    details.push({ label: "Billing", value: "Token-based billing: GitHub reports no quota meters for this seat" });
    return { plan: copilotPlanLabel(reading.plan), primary: null, secondary: null, tertiary: null, details };
  }

  const shown = new Set([premium?.name, chat?.name]);
  for (const [name, quota] of Object.entries(reading.snapshots)) {
    if (shown.has(name) || !isUsable(quota)) continue;
    details.push({
      label: quotaLabel(name),
      value: quota.unlimited ? "Unlimited" : `${percentUsedFromRemaining(percentRemaining(quota) ?? 0)}% used`,
    });
  }

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
    },
  };
}

/** `{}`-like entries (everything zero, no id) and zero-entitlement seats that are not unlimited say nothing. */
function isUsable(quota: CopilotQuota): boolean {
  if (quota.unlimited) return true;
  const zero = (n: number | null) => n === null || n === 0;
  if (zero(quota.entitlement) && zero(quota.remaining) && zero(quota.percentRemaining) && quota.quotaId === "") return false;
  if (quota.entitlement === 0 && quota.remaining === 0) return false;
  return percentRemaining(quota) !== null;
}

function percentRemaining(quota: CopilotQuota): number | null {
  if (quota.percentRemaining !== null && Number.isFinite(quota.percentRemaining)) return clamp(quota.percentRemaining);
  if (quota.entitlement !== null && quota.entitlement > 0 && quota.remaining !== null)
    return clamp((quota.remaining / quota.entitlement) * 100);
  return null;
}

function quotaMeter({ name, quota }: Slot, resetsAt: string | null): Meter {
  const label = quotaLabel(name);
  if (quota.unlimited) return unlimitedMeter(label, { unit: "requests" });
  const hasCounts = quota.entitlement !== null && quota.entitlement > 0 && quota.remaining !== null;
  const overage = quota.overageCount !== null && quota.overageCount > 0 ? quota.overageCount : null;
  return meter(label, {
    usedPercent: percentUsedFromRemaining(percentRemaining(quota) ?? 0),
    used: hasCounts ? round2((quota.entitlement as number) - (quota.remaining as number)) : null,
    limit: hasCounts ? quota.entitlement : null,
    unit: "requests",
    resetsAt,
    note: overage !== null ? `${round2(overage)} requests over the monthly allowance` : null,
  });
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
