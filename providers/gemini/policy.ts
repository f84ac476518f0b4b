import { meter } from "../../domain/meter.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

/** One quota bucket of `retrieveUserQuota`, checked by the wire: a fraction in 0..1, a count never negative. */
export interface QuotaBucket {
  modelId: string;
  remainingFraction: number;
  /** What is left as a count, when Google says (an int64 string upstream). */
  remainingAmount: number | null;
  resetsAt: string | null;
}

export interface GeminiReading {
  tierId: string | null;
  tierName: string | null;
  paidTierName: string | null;
  /** The id token's `hd` claim: the account belongs to a Google Workspace domain. */
  hostedDomain: string | null;
  email: string | null;
  project: string;
  /** Google One AI credits left (`paidTier.availableCredits`), when the plan has them. */
  aiCredits: number | null;
  buckets: QuotaBucket[];
}

/** Code Assist quotas are daily per-model request quotas: Google gives the reset, never the window. */
const DAY_MINUTES = 1440;

type Group = "pro" | "flash" | "flash-lite";
const GROUP_LABELS: Record<Group, string> = { pro: "Pro", flash: "Flash", "flash-lite": "Flash Lite" };

/** The Gemini CLI's model registry (`defaultModelConfigs.ts`); other ids are grouped by their name. */
const KNOWN: Readonly<Record<string, Group>> = {
  "gemini-2.5-pro": "pro",
  "gemini-3-pro-preview": "pro",
  "gemini-3.1-pro-preview": "pro",
  "gemini-2.5-flash": "flash",
  "gemini-3-flash": "flash",
  "gemini-3-flash-preview": "flash",
  "gemini-3.5-flash": "flash",
  "gemini-2.5-flash-lite": "flash-lite",
  "gemini-3.1-flash-lite": "flash-lite",
};

/** A bucket's group as the Gemini CLI shows it; `_vertex` twins and a `models/` prefix count as the model itself. */
export function groupOf(modelId: string): Group | null {
  const id = modelId
    .toLowerCase()
    .replace(/^models\//, "")
    .replace(/_vertex$/, "");
  const known = KNOWN[id];
  if (known) return known;
  if (/flash[-_ ]?lite/.test(id)) return "flash-lite";
  if (id.includes("flash")) return "flash";
  return id.includes("pro") ? "pro" : null;
}

export function geminiSnapshot(reading: GeminiReading): Snapshot {
  const [primary, secondary, tertiary] = (["pro", "flash", "flash-lite"] as const).map((group) => groupMeter(reading.buckets, group));
  const details: Detail[] = [];
  if (reading.email !== null) details.push({ label: "Account", value: reading.email });
  details.push({ label: "Project", value: reading.project });
  if (reading.aiCredits !== null) details.push({ label: "Google One AI credits", value: reading.aiCredits.toLocaleString("en-US") });
  if (reading.buckets.length === 0) details.push({ label: "Quota", value: "Google reported none for this project" });
  return { plan: planOf(reading), primary: primary ?? null, secondary: secondary ?? null, tertiary: tertiary ?? null, details };
}

/** The group's bucket with the least left (the earliest reset on a tie); no bucket, no meter (never 0 %). */
function groupMeter(buckets: readonly QuotaBucket[], group: Group): Meter | null {
  let worst: QuotaBucket | null = null;
  for (const bucket of buckets) {
    if (groupOf(bucket.modelId) !== group) continue;
    const lower = worst === null || bucket.remainingFraction < worst.remainingFraction;
    const tie = worst !== null && bucket.remainingFraction === worst.remainingFraction && earlier(bucket.resetsAt, worst.resetsAt);
    if (lower || tie) worst = bucket;
  }
  if (worst === null) return null;
  return meter(GROUP_LABELS[group], {
    usedPercent: Math.round((1 - worst.remainingFraction) * 1000) / 10,
    ...counts(worst),
    resetsAt: worst.resetsAt,
    windowMinutes: DAY_MINUTES,
  });
}

const earlier = (a: string | null, b: string | null) => a !== null && (b === null || Date.parse(a) < Date.parse(b));

/** Requests used of the limit, as the Gemini CLI works them out: limit = round(left / fraction left). */
function counts(bucket: QuotaBucket): Partial<Meter> {
  if (bucket.remainingAmount === null || bucket.remainingFraction <= 0) return {};
  const limit = Math.round(bucket.remainingAmount / bucket.remainingFraction);
  return { used: Math.max(0, limit - bucket.remainingAmount), limit, unit: "requests" };
}

const TIER_PLANS: Readonly<Record<string, string>> = { "free-tier": "Free", "standard-tier": "Paid", "legacy-tier": "Legacy" };

/** `paidTier.name` (a Google AI plan, without the "Gemini Code Assist in" lead), else the tier; a free Workspace account is `Workspace`. */
export function planOf(reading: Pick<GeminiReading, "paidTierName" | "tierId" | "tierName" | "hostedDomain">): string | null {
  if (reading.paidTierName !== null) return reading.paidTierName.replace(/^gemini code assist in\s+/i, "") || reading.paidTierName;
  if (reading.tierId === "free-tier" && reading.hostedDomain !== null) return "Workspace";
  // a tier the CLI does not know by id is shown by the name Google gives it
  return reading.tierId === null ? null : (TIER_PLANS[reading.tierId] ?? reading.tierName);
}
