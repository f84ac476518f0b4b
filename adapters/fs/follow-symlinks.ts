import { lstat, readlink } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/** As many hops as Linux follows before it gives up with ELOOP. */
const MAX_HOPS = 40;

/**
 * The file a path ends at after following symbolic links, even when the last one dangles, so a
 * rename replaces the target and leaves the link in place. A path that is no link comes back as is.
 */
export async function followSymlinks(path: string): Promise<string> {
  let current = path;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const stats = await lstat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return null;
      throw error;
    });
    if (!stats?.isSymbolicLink()) return current;
    current = resolve(dirname(current), await readlink(current));
  }
  throw Object.assign(new Error(`too many symbolic links: ${path}`), { code: "ELOOP" });
}
