import type { QuotabarError } from "../domain/errors.js";
import type { ProviderDescriptor, ProviderId, SourceKind } from "../domain/providers/descriptor.js";
import type { Snapshot } from "../domain/usage-document.js";
import type { CredentialSource } from "./credential-source.js";
import type { FetchContext } from "./fetch-context.js";
import type { UsageSource } from "./usage-source.js";

/**
 * One way of getting a provider's usage: find a credential, read usage with it, map the reading.
 * A provider is a descriptor plus an ordered list of these; the UsageService runs them in order.
 */
export interface FetchStrategy<Credential = unknown, Reading = unknown> {
  source: SourceKind;
  credentials: CredentialSource<Credential>;
  usage: UsageSource<Credential, Reading>;
  toSnapshot(reading: Reading, now: Date): Snapshot;
  /** The error shown when no strategy found a credential. */
  missingCredential(context: FetchContext): QuotabarError;
  /** Whether to try the next strategy after this error (default: no). */
  fallbackOn?(error: QuotabarError, context: FetchContext): boolean;
  /** Whether this strategy takes part under the given source mode (default: always). */
  appliesTo?(sourceMode: string): boolean;
}

export type AnyFetchStrategy = FetchStrategy<any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface ProviderPlugin {
  descriptor: ProviderDescriptor;
  strategies: readonly AnyFetchStrategy[];
}

/** Every provider the running program knows, in display order. */
export interface ProviderRegistry {
  all(): readonly ProviderPlugin[];
  get(id: ProviderId): ProviderPlugin | undefined;
}

export type { Snapshot };
