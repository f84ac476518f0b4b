import type { UsageDocument } from "../domain/usage-document.js";

/** A user opening the menu sees cached data; it is refetched when older than this. */
export const FRESH_FOR_MS = 60_000;

/** Background launches always fetch; a user launch only when the cached document is missing or old. */
export function shouldFetch(cached: UsageDocument | undefined, now: Date, background: boolean): boolean {
  if (background || cached === undefined) return true;
  return now.getTime() - new Date(cached.generatedAt).getTime() > FRESH_FOR_MS;
}
