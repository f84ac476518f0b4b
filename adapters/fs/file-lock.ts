import { open, stat, unlink } from "node:fs/promises";

/** A lock file older than this was left by a writer that died holding it (a hold lasts milliseconds). */
const STALE_MS = 10_000;
const TIMEOUT_MS = 20_000;

/** The lock could not be had in time: another writer holds it, or a lock file was left that is not yet stale. */
export class LockTimeoutError extends Error {
  override name = "LockTimeoutError";
  constructor(readonly lockPath: string) {
    super(`still locked by ${lockPath}`);
  }
}

/**
 * Takes `lockPath` by creating it exclusively (processes queue on it, not only promises), retrying
 * with a small random wait; a lock file older than `staleMs` is removed first. Gives the function
 * that releases it. Other errors (a missing directory, no permission) are thrown as they are.
 */
export async function acquireLock(
  lockPath: string,
  { staleMs = STALE_MS, timeoutMs = TIMEOUT_MS }: { staleMs?: number; timeoutMs?: number } = {},
): Promise<() => Promise<void>> {
  const started = Date.now();
  for (;;) {
    try {
      const handle = await open(lockPath, "wx", 0o600);
      await handle.close();
      return () => unlink(lockPath).catch(() => undefined);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = await stat(lockPath).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > staleMs) await unlink(lockPath).catch(() => undefined); // a writer died holding it
      if (Date.now() - started > timeoutMs) throw new LockTimeoutError(lockPath);
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
  }
}
