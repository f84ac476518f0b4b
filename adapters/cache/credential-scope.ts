import { createHash } from "node:crypto";

/**
 * What ties a cached thing to the credential and origin map it came from: a hash, never the
 * credential. A different key, or the simulator's origin map, gives another scope.
 */
export function credentialScope(origins: string, credential: readonly string[]): string {
  return createHash("sha256")
    .update(JSON.stringify([origins, ...credential]))
    .digest("hex")
    .slice(0, 32);
}
