import type { UsageDocument } from "../domain/usage-document.js";

/** A user opening the menu sees cached data; it is refetched when older than this. */
export const FRESH_FOR_MS = 60_000;
/**
 * Raycast launches the command in the background every minute (so that a rotating title moves on);
 * only a launch that finds the document this old fetches, as every 5 minutes before.
 */
export const FETCH_EVERY_MS = 5 * 60_000;
/** Raycast's schedule drifts a little: a launch up to this much early still fetches. */
const SCHEDULE_SLACK_MS = 30_000;

/** A fetch when the cached document is missing, or older than 5 minutes (background) or a minute (a user launch). */
export function shouldFetch(cached: UsageDocument | undefined, now: Date, background: boolean): boolean {
  if (cached === undefined) return true;
  const age = now.getTime() - new Date(cached.generatedAt).getTime();
  // a document from the future: the clock went back, and its age says nothing
  if (!Number.isFinite(age) || age < 0) return true;
  return background ? age >= FETCH_EVERY_MS - SCHEDULE_SLACK_MS : age > FRESH_FOR_MS;
}
