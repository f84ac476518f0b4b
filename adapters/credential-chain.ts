import type { CredentialSource } from "../ports/credential-source.js";
import type { FetchContext } from "../ports/fetch-context.js";

/**
 * The first credential any source finds, trying them in order. Providers list their sources as
 * data, so a browser importer or a cookie cache can be slotted in later without touching the rest.
 */
export function credentialChain<Credential>(sources: readonly CredentialSource<Credential>[]): CredentialSource<Credential> {
  return {
    async resolve(context: FetchContext) {
      for (const source of sources) {
        const credential = await source.resolve(context);
        if (credential !== null) return credential;
      }
      return null;
    },
  };
}
