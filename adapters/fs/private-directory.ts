import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/**
 * Makes `dir` and the missing directories above it (mode 0700), one step each, and fails at once
 * where one cannot be made. Not `mkdir(..., { recursive: true })`: under /proc that one retries for
 * ever (the kernel answers ENOENT for a directory it will not make, and Node makes the parent again).
 * A file where a directory should be fails with ENOTDIR, like Node's own.
 */
export async function makePrivateDirectory(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let current = resolve(dir); ; current = dirname(current)) {
    // ENOTDIR: something above is a file; the walk up finds which, to name it
    const info = await stat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
      throw error;
    });
    if (info) {
      if (!info.isDirectory()) throw notADirectory(current);
      break;
    }
    missing.push(current);
    if (dirname(current) === current) break; // the root itself is missing: mkdir says why
  }
  for (const path of missing.reverse()) {
    await mkdir(path, { mode: 0o700 }).catch(async (error: NodeJS.ErrnoException) => {
      // made meanwhile by another process: as good as made here
      if (error.code === "EEXIST" && (await stat(path).catch(() => null))?.isDirectory()) return;
      throw error;
    });
  }
}

function notADirectory(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path}'`), { code: "ENOTDIR", path, syscall: "mkdir" });
}
