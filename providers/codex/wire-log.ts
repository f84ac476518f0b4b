import {
  decodeValue,
  fromEpochMillis,
  fromEpochSeconds,
  fromIso,
  isObject,
  MAX_DEPTH,
  nestsDeeperThan,
  notConfigured,
  advice,
  readTail,
  toText,
  tryJson,
  type JsonObject,
} from "../kit/index.js";
import { zCount, zNumber, zPercent } from "../kit/schema.js";
import * as z from "../../domain/zod.js";
import type { CodexReading } from "./policy.js";
import type { SessionLog } from "./session-logs.js";
import { creditsOf, positiveMinutes, shortText, slotWindows, SnakeCredits, text } from "./wire-usage.js";

const SERVICE = "Codex session log";
/** How much of a log's end is read, growing only while no rate limits are found: a turn's last event is usually in the first. */
const TAIL_STEPS = [64 * 1024, 1 << 20, 8 << 20];
/** A token_count line is about a kilobyte; a longer one is not parsed. */
const MAX_LINE_CHARS = 256 * 1024;

/** A window of the snapshot Codex writes in its log: `resets_at` (epoch s), or in older logs `resets_in_seconds` from the line's time. */
const LogWindow = z.object({
  used_percent: zPercent,
  window_minutes: z.nullish(zCount),
  resets_at: z.nullish(zNumber),
  resets_in_seconds: z.nullish(zCount),
});

/** `payload.rate_limits` of a `token_count` event (vendor RateLimitSnapshot, snake_case). */
const LogRateLimits = z.object({
  limit_id: text,
  primary: z.nullish(LogWindow),
  secondary: z.nullish(LogWindow),
  credits: z.nullish(SnakeCredits),
  plan_type: text,
});

interface Found {
  rateLimits: unknown;
  /** When the line was written (ms). */
  at: number;
  limitId: string | null;
}

/**
 * The newest rate limits Codex wrote: the last `token_count` event that carries them, read from
 * the end of the newest session log (then the next newest, while a fresh session has none yet).
 * No network at all; the snapshot is as old as Codex's last turn.
 */
export async function readSessionLogs(logs: readonly SessionLog[]): Promise<CodexReading> {
  let other: Found | null = null;
  for (const log of logs) {
    const found = await newestIn(log);
    if (found === null) continue;
    // the main Codex limit; a model's own limit (Spark) only when nothing newer names the main one
    if (found.limitId === null || found.limitId === "codex") return readingOf(found);
    other ??= found;
  }
  if (other) return readingOf(other);
  throw notConfigured(
    "Codex's newest session logs hold no rate limits yet.",
    advice("Use Codex once (a turn writes its rate limits to its log), or let quotabar ask ChatGPT with Codex's sign-in."),
  );
}

async function newestIn(log: SessionLog): Promise<Found | null> {
  for (const bytes of TAIL_STEPS) {
    const tail = await readTail(log.path, bytes).catch(() => null);
    if (tail === null) return null;
    const found = lastRateLimits(tail.text, log.mtimeMs);
    if (found !== null || tail.size <= bytes) return found;
  }
  return null;
}

/** From the end: the first `token_count` event with rate limits that parses (a line still being written is passed over). */
function lastRateLimits(text: string, mtimeMs: number): Found | null {
  let end = text.length;
  while (end > 0) {
    const start = text.lastIndexOf("\n", end - 1) + 1;
    const line = text.slice(start, end);
    end = start - 1;
    if (line.length > MAX_LINE_CHARS || !line.includes('"token_count"') || !line.includes('"rate_limits"')) continue;
    const entry = tryJson(line);
    if (!isObject(entry) || nestsDeeperThan(entry, MAX_DEPTH)) continue;
    const payload = entry.payload;
    if (entry.type !== "event_msg" || !isObject(payload) || payload.type !== "token_count" || !isObject(payload.rate_limits)) continue;
    const at = Date.parse(fromIso(toText(entry.timestamp)) ?? "") || mtimeMs;
    return { rateLimits: payload.rate_limits, at, limitId: toText((payload.rate_limits as JsonObject).limit_id) };
  }
  return null;
}

function readingOf(found: Found): CodexReading {
  const limits = decodeValue(found.rateLimits, LogRateLimits, SERVICE);
  const windows = slotWindows(limits, (window) => ({
    usedPercent: window.used_percent,
    windowMinutes: positiveMinutes(window.window_minutes),
    // older logs count the reset from the line's own time, not from now
    resetsAt:
      fromEpochSeconds(window.resets_at) ??
      (window.resets_in_seconds != null ? fromEpochMillis(found.at + window.resets_in_seconds * 1000) : null),
  }));
  return {
    plan: shortText(limits.plan_type),
    windows,
    credits: creditsOf(limits.credits && { hasCredits: limits.credits.has_credits, ...limits.credits }),
    monthlyCredits: null,
    extraLimits: [],
    resetCredits: null,
    email: null,
    loggedAt: fromEpochMillis(found.at),
  };
}
