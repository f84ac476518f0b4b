import type { AccountKey } from "../domain/account.js";

/**
 * What a provider learnt in an earlier run with the same credential (an access token, a workspace
 * id, quota limits that rarely change), kept so the next refresh makes fewer round trips. Scoped to
 * one account of a provider and one credential (and the origin map): another credential starts with nothing.
 * Every value has a lifetime; an expired or damaged one reads as absent.
 */
export interface KeptValues {
  /** A plain value (never a secret: it is kept in a cache file), or null. */
  read(name: string): Promise<unknown>;
  write(name: string, value: unknown, ttlMs: number): Promise<void>;
  /** A secret (an access token), kept only in the secret store; redacted from what the run shows. */
  readSecret(name: string): Promise<string | null>;
  writeSecret(name: string, secret: string, ttlMs: number): Promise<void>;
  /** Drop a value (plain or secret), e.g. when the upstream refused it. */
  forget(name: string): Promise<void>;
}

/** Kept values for one fetch, and forgetting everything of a provider (`quotabar cache clear`, logout). */
export interface KeptValueStore {
  scoped(key: AccountKey, credential: readonly string[], onSecret: (secret: string) => void): KeptValues;
  removeAll(key: AccountKey): Promise<void>;
}
