import { release } from "node:os";

/** The OS a request may have to name (some upstreams only answer clients that look like their app). */
export function hostOs(): { platform: NodeJS.Platform; release: string } {
  return { platform: process.platform, release: release() };
}
