import { isAbsolute, join, resolve } from "node:path";
import { homeOf } from "../../adapters/config/config-path.js";
import { readRegularFile } from "../../adapters/fs/regular-file.js";
import type { Environment } from "../../ports/environment.js";

/** Local files a provider reads (a CLI's session file, an IDE's options): found under HOME and the XDG dirs. */

/** $XDG_DATA_HOME when absolute, else ~/.local/share. */
export function dataHome(env: Environment): string {
  const xdg = env.XDG_DATA_HOME;
  return xdg && isAbsolute(xdg) ? xdg : join(homeOf(env), ".local", "share");
}

export { homeOf, join as joinPath };

/** A path as given when absolute, else against the working directory (as a shell would read a relative variable). */
export const absolutePath = (path: string): string => (isAbsolute(path) ? path : resolve(path));

/** More than any session, token or options file a provider reads: a larger one is refused unread. */
export const MAX_LOCAL_FILE_BYTES = 8 * 1024 * 1024;

/**
 * The text of a regular file of at most `maxBytes`, null when it does not exist; other failures
 * throw (permissions; a device, FIFO or socket, code ENOTREG; a file too large, code EFBIG).
 */
export async function readTextIfPresent(path: string, maxBytes = MAX_LOCAL_FILE_BYTES): Promise<string | null> {
  try {
    return await readRegularFile(path, maxBytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
