import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { writeAtomically } from "../../adapters/fs/atomic-write.js";
import { providerCache } from "../../providers/kit/cache-file.js";

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "quotabar-atomic-"));
  dirs.push(dir);
  return dir;
}

/** Counts the fsyncs of every file handle (FileHandle's class is not exported: its prototype is reached through one). */
async function countSyncs(dir: string) {
  const probe = await open(dir, "r");
  const prototype = Object.getPrototypeOf(probe) as { sync(): Promise<void> };
  await probe.close();
  return vi.spyOn(prototype, "sync");
}

describe("writeAtomically", () => {
  it("replaces a file whole, owner-only, waiting on the disk for the file and its directory", async () => {
    const dir = tempDir();
    const file = join(dir, "a.json");
    const syncs = await countSyncs(dir);
    await writeAtomically(file, "one");
    await writeAtomically(file, "two");
    expect(readFileSync(file, "utf8")).toBe("two");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["a.json"]);
    expect(syncs).toHaveBeenCalledTimes(4);
  });

  it("durable: false writes the same way without an fsync, and the cost index's store is so", async () => {
    const dir = tempDir();
    const file = join(dir, "a.json");
    const syncs = await countSyncs(dir);
    await writeAtomically(file, "one", { durable: false });
    expect(readFileSync(file, "utf8")).toBe("one");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["a.json"]);
    expect(syncs).not.toHaveBeenCalled();

    const cache = join(dir, "cache");
    await providerCache({ XDG_CACHE_HOME: cache }, { durable: false }).write("cost-logs/claude", "{}");
    expect(readFileSync(join(cache, "quotabar", "cost-logs", "claude.json"), "utf8")).toBe("{}");
    expect(syncs).not.toHaveBeenCalled();
    await providerCache({ XDG_CACHE_HOME: cache }).write("cost-logs/other", "{}");
    expect(syncs).toHaveBeenCalledTimes(2);
  });
});
