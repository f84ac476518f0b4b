import type { ProviderStatus, UsageError } from "../domain/usage-document.js";
import type { StatusSource } from "../domain/descriptor.js";

export type PolledStatusSource = Extract<StatusSource, { kind: "polled" }>;

/** Reads one status page (Statuspage API, Google Workspace feed): one request, no caching. */
export interface StatusFeed {
  read(source: PolledStatusSource, options: { signal?: AbortSignal }): Promise<ProviderStatus>;
}

/** The status of one provider's service, cached and rate-limited by whoever implements it; null when it has no polled feed. */
export interface StatusReader {
  statusFor(providerId: string, options?: { signal?: AbortSignal }): Promise<ProviderStatus | null>;
}

/** Everything `quotabar status` shows about one provider's status page. */
export interface StatusReport {
  id: string;
  name: string;
  /** How the status is known: a polled feed, a link to open by hand, or nothing. */
  kind: "statuspage" | "google-workspace" | "link" | "none";
  /** The page a "View status" action opens. */
  url: string | null;
  /** The last status read (possibly from the cache); null when never read, not polled, or checks are off. */
  status: ProviderStatus | null;
  /** When `status` was read from the feed. */
  fetchedAt: string | null;
  /** When the feed was last asked, successfully or not. */
  checkedAt: string | null;
  /** True when the answer came from the cache (asked less than an interval ago), not a request just now. */
  cached: boolean;
  /** The last attempt failed: `status`, if any, is older than `checkedAt`. */
  error: UsageError | null;
}

/** A StatusReader that can also explain itself (the status command). */
export interface StatusReporter extends StatusReader {
  /** Status checks on (config `status.enabled`, default true) and the polling interval. */
  settings(): Promise<{ enabled: boolean; intervalMinutes: number }>;
  forget(providerIds: readonly string[]): Promise<void>;
  report(providerId: string, options?: { signal?: AbortSignal }): Promise<StatusReport>;
}
