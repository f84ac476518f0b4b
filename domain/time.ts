/** Upstream time values in every shape we meet, turned into an absolute ISO-8601 UTC `resetsAt`. */

const MS_THRESHOLD = 1e11; // epoch seconds stay below this until the year 5138

/** Epoch seconds or epoch milliseconds (told apart by magnitude). */
export function fromEpoch(value: number | null | undefined): string | null {
  if (value === null || value === undefined || !Number.isFinite(value) || value <= 0) return null;
  const ms = value >= MS_THRESHOLD ? value : value * 1000;
  return toIso(new Date(ms));
}

export const fromEpochSeconds = (value: number | null | undefined): string | null =>
  value === null || value === undefined || !Number.isFinite(value) || value <= 0 ? null : toIso(new Date(value * 1000));

export const fromEpochMillis = (value: number | null | undefined): string | null =>
  value === null || value === undefined || !Number.isFinite(value) || value <= 0 ? null : toIso(new Date(value));

/** ISO-8601 / RFC 3339 text, with or without fractional seconds; null when unparseable. */
export function fromIso(value: string | null | undefined): string | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  const date = new Date(value.trim());
  return Number.isNaN(date.getTime()) ? null : toIso(date);
}

/** A duration from now (seconds or milliseconds) as an absolute time. */
export function afterSeconds(now: Date, seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return null;
  return toIso(new Date(now.getTime() + seconds * 1000));
}

export function afterMillis(now: Date, ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return null;
  return toIso(new Date(now.getTime() + ms));
}

/** Any of the above: numbers by magnitude, strings as ISO or numeric text. */
export function toResetsAt(value: unknown): string | null {
  if (typeof value === "number") return fromEpoch(value);
  if (typeof value === "string") {
    const trimmed = value.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed)) return fromEpoch(Number(trimmed));
    return fromIso(trimmed);
  }
  return null;
}

function toIso(date: Date): string | null {
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** "3d 4h", "2h 05m", "12m", "45s": the countdown the views show. */
export function formatCountdown(resetsAt: string, now: Date): string {
  const ms = new Date(resetsAt).getTime() - now.getTime();
  if (!Number.isFinite(ms)) return "";
  if (ms <= 0) return "now";
  const totalMinutes = Math.floor(ms / 60_000);
  const days = Math.floor(totalMinutes / 1440);
  const hours = Math.floor((totalMinutes % 1440) / 60);
  const minutes = totalMinutes % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${String(minutes).padStart(2, "0")}m`;
  if (totalMinutes > 0) return `${minutes}m`;
  return `${Math.max(1, Math.floor(ms / 1000))}s`;
}
