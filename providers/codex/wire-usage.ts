import { afterSeconds, fromEpochSeconds, meterPercentFromLeft } from "../kit/index.js";
import { zCount, zLeft, zNumber, zPercent } from "../kit/schema.js";
import * as z from "../../domain/zod.js";
import { shownEmail } from "./credentials.js";
import type { CodexExtraLimit, CodexReading, CodexWindow } from "./policy.js";

/** Names from upstream are shown as details: cut to this. */
const MAX_NAME_CHARS = 60;

/** Fields every Codex answer may leave out. */
export const text = z.nullish(z.string());
const flag = z.nullish(z.boolean());

/** Flex credits as wham/usage and the session log send them: `balance` is text such as "0E-10". */
export const SnakeCredits = z.object({ has_credits: flag, unlimited: flag, balance: z.nullish(zCount) });

/** Credits as the policy reads them, from any route's field names. */
export function creditsOf(
  credits: { hasCredits?: boolean | null; unlimited?: boolean | null; balance?: number | null } | null | undefined,
): CodexReading["credits"] {
  return credits
    ? { hasCredits: credits.hasCredits ?? null, unlimited: credits.unlimited ?? null, balance: credits.balance ?? null }
    : null;
}

/** A `wham/usage` window: percent used (above 100: a full meter), its length and its reset, in seconds. */
const UsageWindow = z.object({
  used_percent: zPercent,
  limit_window_seconds: z.nullish(zCount),
  reset_after_seconds: z.nullish(zCount),
  reset_at: z.nullish(zNumber),
});

/** A team's monthly credit pool (numbers may come as text). */
const IndividualLimit = z.object({
  limit: z.nullish(zCount),
  used: z.nullish(zCount),
  remaining_percent: z.nullish(zLeft),
  resets_at: z.nullish(zNumber),
  reset_at: z.nullish(zNumber),
  limit_name: text,
});

const RateLimit = z.object({
  primary_window: z.nullish(UsageWindow),
  secondary_window: z.nullish(UsageWindow),
  individual_limit: z.nullish(IndividualLimit),
});

/** `GET /backend-api/wham/usage` (reference §3.3); unknown fields are ignored. */
export const UsageSchema = z.object({
  email: text,
  plan_type: text,
  rate_limit: z.nullish(RateLimit),
  code_review_rate_limit: z.nullish(RateLimit),
  additional_rate_limits: z.nullish(
    z.array(z.object({ limit_name: text, metered_feature: text, rate_limit: z.nullish(RateLimit) })).check(z.maxLength(64)),
  ),
  credits: z.nullish(SnakeCredits),
  rate_limit_reset_credits: z.nullish(z.object({ available_count: z.nullish(zCount) })),
  individual_limit: z.nullish(IndividualLimit),
  spend_control: z.nullish(z.object({ individual_limit: z.nullish(IndividualLimit) })),
});
export type UsageBody = z.output<typeof UsageSchema>;

/** Cut and trimmed, or null. */
export const shortText = (value: string | null | undefined): string | null => value?.trim().slice(0, MAX_NAME_CHARS) || null;

/** Minutes of a window given in seconds, rounded up as Codex does; null when it does not say. */
export const minutesOf = (seconds: number | null | undefined): number | null =>
  seconds === null || seconds === undefined || seconds <= 0 ? null : Math.ceil(seconds / 60);

/** The windows present in the primary and secondary slots, each read by `read` (every route names their fields its own way). */
export function slotWindows<W>(
  slots: { primary?: W | null; secondary?: W | null },
  read: (window: W) => Omit<CodexWindow, "slot">,
): CodexWindow[] {
  return (["primary", "secondary"] as const).flatMap((slot) => {
    const window = slots[slot];
    return window ? [{ ...read(window), slot }] : [];
  });
}

/** A length in minutes as a count: a zero one says nothing. */
export const positiveMinutes = (minutes: number | null | undefined): number | null => (minutes && minutes > 0 ? minutes : null);

function usageWindows(limit: z.output<typeof RateLimit> | null | undefined, now: Date): CodexWindow[] {
  return slotWindows({ primary: limit?.primary_window, secondary: limit?.secondary_window }, (window) => ({
    usedPercent: window.used_percent,
    windowMinutes: minutesOf(window.limit_window_seconds),
    resetsAt: fromEpochSeconds(window.reset_at) ?? afterSeconds(now, window.reset_after_seconds),
  }));
}

/** The pool's used credits: `used`, else worked out from what is left. */
function monthlyCredits(pool: z.output<typeof IndividualLimit> | null | undefined): CodexReading["monthlyCredits"] {
  if (!pool || pool.limit === null || pool.limit === undefined) return null;
  // more left than the whole is nothing used, less than nothing all of it (the kit's range rule)
  const used = pool.used ?? (pool.remaining_percent != null ? (pool.limit * meterPercentFromLeft(pool.remaining_percent)) / 100 : null);
  if (used === null) return null;
  return { name: shortText(pool.limit_name), used, limit: pool.limit, resetsAt: fromEpochSeconds(pool.resets_at ?? pool.reset_at) };
}

/** A wham/usage body as the policy reads it (the account's email as the body names it). */
export function readingOfUsage(body: UsageBody, now: Date): CodexReading {
  const extraLimits: CodexExtraLimit[] = [];
  const review = usageWindows(body.code_review_rate_limit, now);
  if (review.length > 0) extraLimits.push({ name: "Code review", windows: review });
  for (const extra of body.additional_rate_limits ?? []) {
    const windows = usageWindows(extra.rate_limit, now);
    const name = shortText(extra.limit_name) ?? shortText(extra.metered_feature) ?? "Codex extra limit";
    if (windows.length > 0) extraLimits.push({ name, windows });
  }
  const credits = creditsOf(body.credits && { hasCredits: body.credits.has_credits, ...body.credits });
  return {
    plan: shortText(body.plan_type),
    windows: usageWindows(body.rate_limit, now),
    credits,
    monthlyCredits: monthlyCredits(body.individual_limit ?? body.rate_limit?.individual_limit ?? body.spend_control?.individual_limit),
    extraLimits,
    resetCredits: body.rate_limit_reset_credits?.available_count ?? null,
    email: shownEmail(body.email),
    loggedAt: null,
  };
}
