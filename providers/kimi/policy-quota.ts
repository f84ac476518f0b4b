/** One counter block (`detail` / `usage`) of Kimi's answers; counters are request counts. */
export interface KimiQuota {
  limit: number | null;
  used: number | null;
  remaining: number | null;
  resetsAt: string | null;
}

export const WEEK_MINUTES = 7 * 24 * 60;

/** Whether a block carries any counter at all: one without is no usage, never a 0 % meter. */
export const hasCounters = (quota: KimiQuota): boolean => quota.limit !== null || quota.used !== null || quota.remaining !== null;

/**
 * `used` when given, else limit - remaining, else 0 (proto3 JSON leaves a zero out). The wire refuses
 * negative counters; more left than the limit reads as nothing used.
 */
export function usedOf(quota: KimiQuota, limit: number | null): number {
  if (quota.used !== null) return quota.used;
  if (limit !== null && quota.remaining !== null) return Math.max(0, limit - quota.remaining);
  return 0;
}
