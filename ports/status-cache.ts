import type { ProviderStatus, UsageError } from "../domain/usage-document.js";

/** What the last poll of one provider's status page left behind. */
export interface StatusCacheEntry {
  /** The status source URL that was polled (a changed descriptor invalidates the entry). */
  feedUrl: string;
  /** When the feed was last asked, successfully or not (ISO-8601). */
  checkedAt: string;
  /** When `status` was read (ISO-8601); null when no poll has succeeded yet. */
  fetchedAt: string | null;
  status: ProviderStatus | null;
  /** Why the last attempt failed; null when it succeeded. */
  error: UsageError | null;
}

/** Kept between runs so a burst of CLI calls makes one request per interval. */
export interface StatusCache {
  read(providerId: string): Promise<StatusCacheEntry | null>;
  write(providerId: string, entry: StatusCacheEntry): Promise<void>;
  remove(providerId: string): Promise<void>;
}
