import { notConfigured, type QuotabarError } from "../../domain/errors.js";
import type { CredentialSource } from "../../ports/credential-source.js";
import type { ProviderConfigEntry } from "../../ports/config-store.js";
import type { CredentialContext } from "../../ports/fetch-context.js";
import { normalizeCookieHeader } from "./cookie-header.js";

/** Credential sources as reusable pieces; a provider lists them in the order its spec gives. */

/** Trim, drop one pair of wrapping quotes, trim again; empty means absent. */
export function cleanSecret(value: unknown): string | null {
  if (typeof value !== "string") return null;
  let text = value.trim();
  if (text.length >= 2 && (text[0] === '"' || text[0] === "'") && text.at(-1) === text[0]) text = text.slice(1, -1).trim();
  return text === "" ? null : text;
}

/**
 * The first variable of `names` that is set, cleaned. Variables are the default account's: an entry
 * naming an `account` takes its credentials from its own fields only, never another account's.
 */
export function fromEnv(context: Pick<CredentialContext, "entry" | "env">, names: readonly string[]): string | null {
  if (namesAnAccount(context.entry)) return null;
  for (const name of names) {
    const value = cleanSecret(context.env[name]);
    if (value !== null) return value;
  }
  return null;
}

/** Config `apiKey` first, then the environment variables in order (contract section 4). */
export function apiKey(envNames: readonly string[]): CredentialSource<string> {
  return { resolve: async (context) => cleanSecret(context.entry.apiKey) ?? fromEnv(context, envNames) };
}

/**
 * A pasted Cookie header (or "Copy as cURL" command): config `cookieHeader` unless `cookieSource`
 * is off, then the variables in order; normalised to `name=value; ...`.
 */
export function manualCookieHeader(envNames: readonly string[]): CredentialSource<string> {
  return {
    async resolve(context) {
      const fromConfig = context.entry.cookieSource === "off" ? null : cleanSecret(context.entry.cookieHeader);
      return normalizeCookieHeader(fromConfig ?? fromEnv(context, envNames));
    },
  };
}

/** The first credential any source finds; browser cookies, local storage and process probes slot in as more sources. */
export function firstFound<Credential>(sources: readonly CredentialSource<Credential>[]): CredentialSource<Credential> {
  return {
    async resolve(context) {
      for (const source of sources) {
        const credential = await source.resolve(context);
        if (credential !== null) return credential;
      }
      return null;
    },
  };
}

/** A source whose credential is turned into another shape (null drops it). */
export function mapped<From, To>(source: CredentialSource<From>, map: (value: From) => To | null): CredentialSource<To> {
  return {
    async resolve(context) {
      const value = await source.resolve(context);
      return value === null ? null : map(value);
    },
  };
}

/** The not-configured error of a key-based provider: the message, and "store a key or set one of these". */
export function missingKey(provider: string, envNames: readonly string[], message: string): QuotabarError {
  return notConfigured(message, { kind: "set-key", provider, env: envNames });
}

/** Whether the entry is a named account (not the provider's default one). */
export const namesAnAccount = (entry: ProviderConfigEntry): boolean => typeof entry.account === "string";

/**
 * A sign-in the machine has once (a vendor CLI's file, an IDE's, a running app's, gcloud's): the
 * provider's default account's. A named account reads only what its own entry gives, so it is never
 * shown the default account's numbers under its own name.
 */
export function machineWide<Credential>(source: CredentialSource<Credential>): CredentialSource<Credential> {
  return { resolve: async (context) => (namesAnAccount(context.entry) ? null : source.resolve(context)) };
}
