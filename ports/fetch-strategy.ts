import type { QuotabarError } from "../domain/errors.js";
import type { SourceKind } from "../domain/descriptor.js";
import type { Snapshot } from "../domain/usage-document.js";
import type { CredentialSource } from "./credential-source.js";
import type { CredentialContext, FetchContext } from "./fetch-context.js";

/**
 * One way of getting a provider's usage: find a credential, read usage with it, map the reading.
 * A provider is a descriptor plus an ordered list of these; the UsageService runs them in order.
 */
export interface FetchStrategy<Credential = unknown, Reading = unknown> {
  source: SourceKind;
  credentials: CredentialSource<Credential>;
  /** Read usage with the credential: typed, validated, not yet mapped. */
  fetch(credential: Credential, context: FetchContext): Promise<Reading>;
  /** The pure policy: reading to snapshot. */
  toSnapshot(reading: Reading, now: Date): Snapshot;
  /** The error shown when no strategy found a credential. */
  missingCredential(context: CredentialContext): QuotabarError;
  /** Whether to try the next strategy after this error (default: no). */
  fallbackOn?(error: QuotabarError, context: FetchContext): boolean;
  /** Whether this strategy takes part under the given source mode (default: auto, or its own source). */
  appliesTo?(sourceMode: string): boolean;
  /**
   * The part of the credential that says whose it is, for the scope of the last good snapshot
   * (default: the whole credential). A credential that also carries what changes from run to run
   * (a cached access token, a decoration) names only its stable part, so a failing run still
   * finds the snapshot of a good one.
   */
  identity?(credential: Credential): unknown;
}

export type AnyFetchStrategy = FetchStrategy<any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export type { Snapshot };
