import { statSync } from "node:fs";

/**
 * Whether something is at `path`. Synchronous on purpose: a refresh asks about some twenty browser
 * folders per cookie provider, most of them absent; a stat takes microseconds and, told not to throw,
 * builds no error for a missing path, where the asynchronous one is a thread-pool trip each.
 */
export function exists(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // not ours to look at
  }
}
