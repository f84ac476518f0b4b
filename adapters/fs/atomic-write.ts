import { chmod, open, rename, unlink } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Temp file in the same directory, fsync, rename, fsync the directory: readers see the old or the
 * new file, never half. `durable: false` leaves out both fsyncs (each waits on the disk): readers
 * still never see half a file, but after a power loss it may be empty or the old one; for a cache
 * rebuilt from its sources when it does not read back whole.
 */
export async function writeAtomically(file: string, contents: string, { durable = true }: { durable?: boolean } = {}): Promise<void> {
  // node:crypto loads with the first write: a run that only reads (a status bar's poll) never loads it
  const { randomBytes } = await import("node:crypto");
  const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const handle = await open(temp, "w", 0o600);
  try {
    await handle.writeFile(contents, "utf8");
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await chmod(temp, 0o600);
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  if (!durable) return;
  const dir = await open(dirname(file), "r").catch(() => null);
  if (dir)
    await dir
      .sync()
      .catch(() => undefined)
      .finally(() => dir.close());
}
