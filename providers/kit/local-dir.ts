import { readdir, stat } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { homeOf } from "../../adapters/config/config-path.js";
import type { Environment } from "../../ports/environment.js";

/** Local directories a provider scans (an IDE's per-version folders): where they are, what they hold, when files changed. */

/** $XDG_CONFIG_HOME when absolute, else ~/.config. */
export function configHome(env: Environment): string {
  const xdg = env.XDG_CONFIG_HOME;
  return xdg && isAbsolute(xdg) ? xdg : join(homeOf(env), ".config");
}

const absent = (error: unknown) => ["ENOENT", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "");

/** The names of the directories directly inside `path` (symbolic links to directories included); none when it does not exist. */
export async function subdirectories(path: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(path, { withFileTypes: true });
  } catch (error) {
    if (absent(error)) return [];
    throw error;
  }
  const names = await Promise.all(
    entries.map(async (entry) => {
      if (entry.isDirectory()) return entry.name;
      if (!entry.isSymbolicLink()) return null;
      const target = await stat(join(path, entry.name)).catch(() => null);
      return target?.isDirectory() ? entry.name : null;
    }),
  );
  return names.filter((name): name is string => name !== null);
}

/** When the file at `path` last changed (ms since the epoch); null when there is no such file. Other failures throw. */
export async function modifiedAt(path: string): Promise<number | null> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.mtimeMs : null;
  } catch (error) {
    if (absent(error)) return null;
    throw error;
  }
}
