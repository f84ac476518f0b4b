import type { ProviderStatus } from "../domain/usage-document.js";
import type { StatusSource } from "../domain/providers/descriptor.js";

/** Reads one status page (Statuspage API, Google Workspace feed). */
export interface StatusFeed {
  read(source: Extract<StatusSource, { kind: "polled" }>, options: { signal?: AbortSignal }): Promise<ProviderStatus>;
}

/** The status of one provider's service, cached and rate-limited by whoever implements it; null when it has no polled feed. */
export interface StatusReader {
  statusFor(providerId: string, options?: { signal?: AbortSignal }): Promise<ProviderStatus | null>;
}
