import { isAbsolute, join } from "node:path";
import { homeOf } from "../../adapters/config/config-path.js";
import type { CredentialSource } from "../../ports/credential-source.js";
import type { CredentialContext } from "../../ports/fetch-context.js";
import { cleanSecret, fromEnv, namesAnAccount } from "./credentials.js";

/** Where a vendor CLI keeps its sign-in, and the entry field that points one account at another copy. */
export interface VendorHome {
  /** The provider entry's field: `claudeConfigDir`, `codexHome`, `geminiDir`. */
  field: string;
  /** The vendor's own variables for it (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`), in order. */
  env: readonly string[];
  /** Its folder under HOME when nothing else says (".claude", ".codex", ".gemini"). */
  underHome: string;
}

/**
 * The vendor home of this account: the entry's own field first (absolute, or `~/...`); for the
 * default account then the vendor's variable, then the folder under HOME. A named account without
 * the field has none: it never reads the default account's sign-in (each account its own files).
 */
export function vendorHome(context: Pick<CredentialContext, "entry" | "env">, where: VendorHome): string | null {
  const home = homeOf(context.env);
  const own = cleanSecret(context.entry[where.field]);
  if (own !== null) {
    const path = own === "~" ? home : own.startsWith("~/") ? join(home, own.slice(2)) : own;
    return isAbsolute(path) ? path : null;
  }
  if (namesAnAccount(context.entry)) return null;
  const fromVariable = fromEnv(context, where.env);
  if (fromVariable !== null) return isAbsolute(fromVariable) ? fromVariable : null;
  return join(home, where.underHome);
}

/**
 * A credential read from the account's vendor home (its sign-in file, its logs, the CLI that uses
 * them): none for a named account without a home of its own, so it is never shown the default
 * account's numbers under its own name.
 */
export function inVendorHome<Credential>(where: VendorHome, source: CredentialSource<Credential>): CredentialSource<Credential> {
  return { resolve: async (context) => (vendorHome(context, where) === null ? null : source.resolve(context)) };
}
