/**
 * The length of a monthly window that ends at `resetsAt`, in minutes: from the same day and time one
 * calendar month earlier (UTC; the 31st goes back to the last day of a shorter month). For a monthly
 * quota that states only when it resets. Null without a parseable reset.
 */
export function monthMinutesBefore(resetsAt: string | null): number | null {
  const end = resetsAt === null ? Number.NaN : Date.parse(resetsAt);
  if (!Number.isFinite(end)) return null;
  const at = new Date(end);
  const [year, month] = [at.getUTCFullYear(), at.getUTCMonth()];
  const lastDayBefore = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const start = Date.UTC(
    year,
    month - 1,
    Math.min(at.getUTCDate(), lastDayBefore),
    at.getUTCHours(),
    at.getUTCMinutes(),
    at.getUTCSeconds(),
    at.getUTCMilliseconds(),
  );
  return Math.round((end - start) / 60_000);
}
