import * as z from "./zod.js";
import { ERROR_CODES, STATUS_INDICATORS } from "./usage-codes.js";

export { ERROR_CODES, STATUS_INDICATORS, type ErrorCode, type StatusIndicator } from "./usage-codes.js";

const isoTime = z.iso.datetime({ offset: true });

/**
 * How a meter is going against its window (domain/pace.ts): what share of the window has passed,
 * how far usage is ahead of that (positive) or behind it (negative), and whether it lasts to the reset.
 */
export const PaceSchema = z.object({
  expectedPercent: z.number().check(z.minimum(0), z.maximum(100)),
  deltaPercent: z.number(),
  runsOutAt: z.nullable(isoTime),
  lastsToReset: z.boolean(),
  basis: z.enum(["window", "history"]),
});
export type Pace = z.infer<typeof PaceSchema>;

export const MeterSchema = z.object({
  label: z.string(),
  usedPercent: z.nullable(z.number().check(z.minimum(0), z.maximum(100))),
  used: z.nullable(z.number()),
  limit: z.nullable(z.number()),
  unit: z.nullable(z.string()),
  unlimited: z.boolean(),
  resetsAt: z.nullable(isoTime),
  windowMinutes: z.nullable(z.int()),
  note: z.nullable(z.string()),
  /** Absent (or null) for a meter without a window, unlimited, full, or in a window too young to tell. */
  pace: z.optional(z.nullable(PaceSchema)),
});
export type Meter = z.infer<typeof MeterSchema>;

export const DetailSchema = z.object({ label: z.string(), value: z.string() });
export type Detail = z.infer<typeof DetailSchema>;

export const IncidentSchema = z.object({
  name: z.string(),
  impact: z.string(),
  url: z.nullable(z.string()),
  updatedAt: z.nullable(isoTime),
});
export type Incident = z.infer<typeof IncidentSchema>;

export const ProviderStatusSchema = z.object({
  indicator: z.enum(STATUS_INDICATORS),
  description: z.string(),
  url: z.nullable(z.string()),
  incidents: z.array(IncidentSchema),
});
export type ProviderStatus = z.infer<typeof ProviderStatusSchema>;

export const UsageErrorSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  hint: z.nullable(z.string()),
});
export type UsageError = z.infer<typeof UsageErrorSchema>;

export const ProviderUsageSchema = z.object({
  id: z.string(),
  /** Which of the provider's accounts (config `account`); null: the default one. Absent in documents from before accounts. */
  account: z.optional(z.nullable(z.string())),
  name: z.string(),
  ok: z.boolean(),
  source: z.nullable(z.string()),
  plan: z.nullable(z.string()),
  primary: z.nullable(MeterSchema),
  secondary: z.nullable(MeterSchema),
  tertiary: z.nullable(MeterSchema),
  details: z.array(DetailSchema),
  status: z.nullable(ProviderStatusSchema),
  fetchedAt: z.nullable(isoTime),
  stale: z.boolean(),
  error: z.nullable(UsageErrorSchema),
});
export type ProviderUsage = z.infer<typeof ProviderUsageSchema>;

export const UsageDocumentSchema = z.object({
  version: z.literal(1),
  generatedAt: isoTime,
  providers: z.array(ProviderUsageSchema),
});
export type UsageDocument = z.infer<typeof UsageDocumentSchema>;

/** What a provider policy produces from one upstream reading. */
export interface Snapshot {
  plan: string | null;
  primary: Meter | null;
  secondary: Meter | null;
  tertiary: Meter | null;
  details: Detail[];
}
