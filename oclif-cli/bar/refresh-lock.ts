import { join } from "node:path";
import { acquireLock, LockTimeoutError } from "../../adapters/fs/file-lock.js";
import { makePrivateDirectory } from "../../adapters/fs/private-directory.js";
import type { ProviderUsage } from "../../domain/usage-document.js";

export interface LockedRefresh {
  /** Where `<id>.lock` files are taken (created 0700 when missing). */
  lockDir: string;
  /** How long a refresh may hold a lock: an older lock file was left by a process that died; waiting longer gives up. */
  holdMs: number;
  /** What another process refreshed while this one waited for the lock: a usage fresh enough, or null. */
  reread(id: string): Promise<ProviderUsage | null>;
  /** Refreshes these providers (one request of the usage service, so they go concurrently). */
  refresh(ids: string[]): Promise<ProviderUsage[]>;
}

/**
 * Refreshes `ids`, each under its own lock file, so concurrent pollers never refresh one provider
 * twice at once: locks are taken in id order (two pollers never hold one each of a pair), then
 * each provider is read again, and only those still due are refreshed. A provider whose lock could
 * not be had in time is left to its holder (the poller shows what is kept); a lock that cannot be
 * created at all (a read-only cache) does not stop the refresh.
 */
export async function refreshUnderLocks(ids: readonly string[], how: LockedRefresh): Promise<ProviderUsage[]> {
  const releases: (() => Promise<void>)[] = [];
  const held: string[] = [];
  try {
    // step by step: a recursive mkdir under /proc retries for ever (adapters/fs/private-directory.ts)
    await makePrivateDirectory(how.lockDir).catch(() => undefined);
    for (const id of [...ids].sort()) {
      try {
        releases.push(await acquireLock(join(how.lockDir, `${id}.lock`), { staleMs: how.holdMs, timeoutMs: how.holdMs }));
        held.push(id);
      } catch (error) {
        if (!(error instanceof LockTimeoutError)) held.push(id);
      }
    }
    const results: ProviderUsage[] = [];
    const stillDue: string[] = [];
    for (const id of held) {
      const fresh = await how.reread(id);
      if (fresh) results.push(fresh);
      else stillDue.push(id);
    }
    if (stillDue.length > 0) results.push(...(await how.refresh(stillDue)));
    return results;
  } finally {
    await Promise.all(releases.map((release) => release()));
  }
}
