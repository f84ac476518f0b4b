import { monthMinutesBefore } from "../../domain/calendar-month.js";
import { dollars } from "../../domain/number-text.js";
import { meter, percent } from "../../domain/meter.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

/** Credit blocks, in dollars (Kilo's credits are dollar amounts). */
export interface KiloCredits {
  used: number | null;
  total: number | null;
  remaining: number | null;
}

/** The Kilo Pass subscription period, in dollars; `bonus` is already included in `total`. */
export interface KiloPass {
  used: number | null;
  total: number | null;
  remaining: number | null;
  bonus: number;
  resetsAt: string | null;
}

export interface KiloAutoTopUp {
  enabled: boolean;
  /** Payment method or amount ("visa", "$20"), when the service names one. */
  method: string | null;
}

export interface KiloOrganization {
  id: string;
  name: string | null;
  role: string | null;
}

/** Whose usage was read, and the organizations the account could read instead. */
export interface KiloScope {
  /** The organization asked for (config `organizationId`); null for the personal account. */
  organizationId: string | null;
  /** The account's organizations; null when discovery did not answer in time. */
  organizations: readonly KiloOrganization[] | null;
}

export const PERSONAL_SCOPE: KiloScope = { organizationId: null, organizations: null };

export interface KiloReading {
  credits: KiloCredits | null;
  pass: KiloPass | null;
  planName: string | null;
  autoTopUp: KiloAutoTopUp | null;
  scope: KiloScope;
}

const TIER_NAMES: Record<string, string> = { tier_19: "Starter", tier_49: "Pro", tier_199: "Expert" };

/** `tier_49` is "Pro"; unknown tiers are shown as they come. */
export const kiloTierName = (tier: string): string => TIER_NAMES[tier] ?? tier;

/**
 * Credits fill the primary meter and Kilo Pass the secondary; the plan is the pass tier, the scope
 * and auto top-up are details. Without credits, the pass moves up.
 */
export function kiloSnapshot(reading: KiloReading): Snapshot {
  const credits = creditsMeter(reading.credits);
  const pass = passMeter(reading.pass);
  const details: Detail[] = scopeDetails(reading.scope);
  if (reading.autoTopUp) details.push({ label: "Activity", value: autoTopUpText(reading.autoTopUp) });
  return {
    plan: reading.planName,
    primary: credits ?? pass,
    secondary: credits ? pass : null,
    tertiary: null,
    details,
  };
}

function creditsMeter(credits: KiloCredits | null): Meter | null {
  const amounts = meterAmounts(credits);
  if (!amounts) return null;
  return meter("Credits", { ...amounts, unit: "credits", note: null });
}

function passMeter(pass: KiloPass | null): Meter | null {
  const amounts = meterAmounts(pass);
  if (!pass || !amounts) return null;
  const bonus = pass.bonus > 0 ? ` (+ ${dollars(pass.bonus)} bonus)` : "";
  return meter("Kilo Pass", {
    ...amounts,
    unit: "USD",
    resetsAt: pass.resetsAt,
    // a monthly subscription whose answer states only the next billing date: the calendar month up to it
    windowMinutes: monthMinutesBefore(pass.resetsAt),
    note: `${dollars(amounts.used)} / ${dollars(amounts.limit - pass.bonus)}${bonus}`,
  });
}

/** Total from itself or used + remaining; used from itself or total - remaining; an empty total reads as exhausted. */
function meterAmounts(amounts: KiloCredits | null): { used: number; limit: number; usedPercent: number } | null {
  if (!amounts) return null;
  const { used, total, remaining } = amounts;
  const limit = total ?? (used !== null && remaining !== null ? used + remaining : null);
  if (limit === null) return null;
  // amounts are never negative (the wire refuses them); more left than the total reads as nothing spent
  const spent = used ?? (remaining !== null ? Math.max(0, round(limit - remaining)) : 0);
  return { used: spent, limit, usedPercent: limit > 0 ? percent((spent / limit) * 100) : 100 };
}

const LISTED_ORGANIZATIONS = 5;

/** Whose usage this is, and (so an id can be picked for `organizationId`) the organizations found. */
function scopeDetails({ organizationId, organizations }: KiloScope): Detail[] {
  const found = organizations ?? [];
  const chosen = found.find((organization) => organization.id === organizationId);
  let scope = "Personal";
  if (organizationId !== null) {
    if (chosen?.name) scope = `${chosen.name} (organization ${organizationId})`;
    else if (organizations !== null && !chosen) scope = `Organization ${organizationId} (not among this account's organizations)`;
    else scope = `Organization ${organizationId}`;
  }
  const details: Detail[] = [{ label: "Scope", value: scope }];
  if (found.length > 0) {
    const listed = found.slice(0, LISTED_ORGANIZATIONS).map(({ id, name }) => (name ? `${name} (${id})` : id));
    const more = found.length > LISTED_ORGANIZATIONS ? `, and ${found.length - LISTED_ORGANIZATIONS} more` : "";
    details.push({ label: "Organizations", value: `${listed.join(", ")}${more}` });
  }
  return details;
}

function autoTopUpText(topUp: KiloAutoTopUp): string {
  if (!topUp.enabled) return "Auto top-up: off";
  return `Auto top-up: ${topUp.method ?? "enabled"}`;
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;
