import type { Meter } from "./usage-document.js";

/** A provider's meters, in the document's order (here, not beside the schema: importing this loads no zod). */
export const METER_ROLES = ["primary", "secondary", "tertiary"] as const;
export type MeterRole = (typeof METER_ROLES)[number];

/** Clamp to [min, max]; NaN becomes min so a bad upstream number never leaks into a bar. */
export function clamp(value: number, min = 0, max = 100): number {
  if (Number.isNaN(value)) return min;
  return Math.min(max, Math.max(min, value));
}

/** Percent used rounded to two decimals, clamped to 0..100. */
export function percent(value: number): number {
  return Math.round(clamp(value) * 100) / 100;
}

/** Percent used from a used/limit pair; null when the limit is not positive. */
export function percentOf(used: number, limit: number): number | null {
  if (!Number.isFinite(used) || !Number.isFinite(limit) || limit <= 0) return null;
  return percent((used / limit) * 100);
}

/** Several providers report percent *remaining*; the document always carries percent used (domain/coerce's rule: more left than all is 0 %). */
export function percentUsedFromRemaining(remainingPercent: number): number {
  return percent(100 - remainingPercent);
}

/** A meter with every optional field defaulted, so policies only state what they know. */
export function meter(label: string, fields: Partial<Omit<Meter, "label">> = {}): Meter {
  return {
    label,
    usedPercent: fields.usedPercent === undefined || fields.usedPercent === null ? null : percent(fields.usedPercent),
    used: fields.used ?? null,
    limit: fields.limit ?? null,
    unit: fields.unit ?? null,
    unlimited: fields.unlimited ?? false,
    resetsAt: fields.resetsAt ?? null,
    windowMinutes: fields.windowMinutes ?? null,
    note: fields.note ?? null,
  };
}

/** The bar of an unlimited plan: full, with the text Unlimited. */
export function unlimitedMeter(label: string, fields: Partial<Omit<Meter, "label" | "unlimited">> = {}): Meter {
  return meter(label, { ...fields, usedPercent: fields.usedPercent ?? 0, unlimited: true, note: fields.note ?? "Unlimited" });
}
