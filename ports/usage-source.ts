import type { FetchContext } from "./fetch-context.js";

/** Reads a provider's usage with a credential and returns a typed, validated reading. */
export interface UsageSource<Credential, Reading> {
  fetch(credential: Credential, context: FetchContext): Promise<Reading>;
}
