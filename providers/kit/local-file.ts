import { readFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { homeOf } from "../../adapters/config/config-path.js";
import type { Environment } from "../../ports/environment.js";

/** Local files a provider reads (a CLI's session file, an IDE's options): found under HOME and the XDG dirs. */

/** $XDG_DATA_HOME when absolute, else ~/.local/share. */
export function dataHome(env: Environment): string {
  const xdg = env.XDG_DATA_HOME;
  return xdg && isAbsolute(xdg) ? xdg : join(homeOf(env), ".local", "share");
}

export { homeOf, join as joinPath };

/** The text of a file, null when it does not exist; other failures (permissions) throw. */
export async function readTextIfPresent(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
