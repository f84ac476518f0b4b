import type * as Crypto from "node:crypto";
import { createRequire } from "node:module";

/** node:crypto, loaded by the first scope (~6 ms): `quotabar providers` loads this module and never asks for one. */
let crypto: typeof Crypto | undefined;
const sha256 = () => (crypto ??= createRequire(import.meta.url)("node:crypto") as typeof Crypto).createHash("sha256");

/**
 * What ties a cached thing to the credential and origin map it came from: a hash, never the
 * credential. A different key, or the simulator's origin map, gives another scope.
 */
export function credentialScope(origins: string, credential: readonly string[]): string {
  return sha256()
    .update(JSON.stringify([origins, ...credential]))
    .digest("hex")
    .slice(0, 32);
}
