import type * as Crypto from "node:crypto";
import { createRequire } from "node:module";

// node:crypto is loaded on the first hash: `quotabar providers` hashes nothing, and loading it costs ~2 ms
const crypto = () => createRequire(import.meta.url)("node:crypto") as typeof Crypto;

/**
 * What ties a cached thing to the credential and origin map it came from: a hash, never the
 * credential. A different key, or the simulator's origin map, gives another scope.
 */
export function credentialScope(origins: string, credential: readonly string[]): string {
  return crypto()
    .createHash("sha256")
    .update(JSON.stringify([origins, ...credential]))
    .digest("hex")
    .slice(0, 32);
}
