import type { CredentialContext } from "./fetch-context.js";

/** Finds a credential for one strategy; null means "none here", and the next strategy is tried. */
export interface CredentialSource<Credential> {
  resolve(context: CredentialContext): Promise<Credential | null>;
}
