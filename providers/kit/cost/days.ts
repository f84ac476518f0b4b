import { localTimeZone } from "../time-zone.js";

/** Local calendar days as `YYYY-MM-DD`: Claude Code's costs are totalled per day where the user is. */

const pad = (n: number) => String(n).padStart(2, "0");

export function localDay(at: Date | number): string {
  const date = new Date(at);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Local midnight of a day; null when the text is not a real `YYYY-MM-DD` date. */
export function dayStart(day: string): Date | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const start = new Date(year, month - 1, date);
  return start.getFullYear() === year && start.getMonth() === month - 1 && start.getDate() === date ? start : null;
}

/** The day `days` after (or before, when negative) a valid day; by calendar, so daylight saving never skips one. */
export function shiftDay(day: string, days: number): string {
  const start = dayStart(day) as Date;
  return localDay(new Date(start.getFullYear(), start.getMonth(), start.getDate() + days));
}

/** The Monday of a valid day's week. */
export function weekStart(day: string): string {
  const start = dayStart(day) as Date;
  return shiftDay(day, -((start.getDay() + 6) % 7));
}

export const monthStart = (day: string): string => `${day.slice(0, 8)}01`;

/** The local month of `now` in minutes, 1st to 1st (a month with a daylight-saving change is an hour off whole days). */
export function localMonthMinutes(now: Date): number {
  const start = new Date(now.getFullYear(), now.getMonth(), 1).getTime();
  return Math.round((new Date(now.getFullYear(), now.getMonth() + 1, 1).getTime() - start) / 60_000);
}

/** The first moment of the next local month, as the meter's reset. */
export function nextMonthStart(now: Date): string {
  return new Date(now.getFullYear(), now.getMonth() + 1, 1).toISOString();
}

/** The time zone days are cut in (a cache of per-day sums is only good in the zone it was made in). */
export const timeZone = (): string => localTimeZone();
