import { readFile, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { compareText } from "../../../domain/order.js";

/** One browser profile that has a cookie store on disk. */
export interface ChromiumProfile {
  /** The directory ("Default", "Profile 1"); "." for a browser that keeps one profile in its root (Helium). */
  dir: string;
  /** The name the browser shows ("Person 1"), else the directory. */
  label: string;
  /** `Network/Cookies` first (newer browsers), then `Cookies`: the ones that exist. */
  cookieFiles: string[];
}

const PROFILE_DIR = /^(Default|Profile \d+|user-.+)$/;
const MAX_LOCAL_STATE_BYTES = 8 * 1024 * 1024;

const isFile = (path: string) =>
  stat(path).then(
    (info) => info.isFile(),
    () => false,
  );

/** `Local State` → profile.info_cache names and profile.last_used; empty when it is missing or unreadable. */
async function localState(root: string): Promise<{ names: Map<string, string>; lastUsed: string | null }> {
  const names = new Map<string, string>();
  try {
    const path = join(root, "Local State");
    if ((await stat(path)).size > MAX_LOCAL_STATE_BYTES) return { names, lastUsed: null };
    const state = JSON.parse(await readFile(path, "utf8")) as { profile?: { info_cache?: unknown; last_used?: unknown } };
    const cache = state.profile?.info_cache;
    if (cache && typeof cache === "object") {
      for (const [dir, info] of Object.entries(cache as Record<string, unknown>)) {
        const name = (info as { name?: unknown } | null)?.name;
        if (typeof name === "string" && name.trim() !== "") names.set(dir, name.trim());
      }
    }
    const lastUsed = state.profile?.last_used;
    return { names, lastUsed: typeof lastUsed === "string" ? lastUsed : null };
  } catch {
    return { names, lastUsed: null };
  }
}

/** Last used first, then Default, then Profile 1, 2, ... by number, then the rest by name. */
function rank(dir: string, lastUsed: string | null): [number, number, string] {
  if (dir === lastUsed) return [0, 0, dir];
  if (dir === "Default" || dir === ".") return [1, 0, dir];
  const numbered = /^Profile (\d+)$/.exec(dir);
  if (numbered) return [2, Number(numbered[1]), dir];
  return [3, 0, dir];
}

/** Every profile directory under a user-data directory (with the root itself, for browsers that keep one profile there), in the order to try them. */
export async function chromiumProfileDirs(root: string): Promise<{ dir: string; path: string; label: string }[]> {
  let entries: string[];
  try {
    entries = (await readdir(root, { withFileTypes: true })).filter((e) => e.isDirectory() && PROFILE_DIR.test(e.name)).map((e) => e.name);
  } catch {
    return [];
  }
  const { names, lastUsed } = await localState(root);
  return [".", ...entries]
    .map((dir) => ({ dir, path: join(root, dir), label: names.get(dir) ?? (dir === "." ? "Default" : dir) }))
    .sort((a, b) => {
      const [x, y] = [rank(a.dir, lastUsed), rank(b.dir, lastUsed)];
      return x[0] - y[0] || x[1] - y[1] || compareText(x[2], y[2]);
    });
}

/** The profiles under a user-data directory that have a cookie store, in the order to try them. */
export async function chromiumProfiles(root: string): Promise<ChromiumProfile[]> {
  const profiles: ChromiumProfile[] = [];
  for (const { dir, path, label } of await chromiumProfileDirs(root)) {
    const candidates = [join(path, "Network", "Cookies"), join(path, "Cookies")];
    const cookieFiles = (await Promise.all(candidates.map(async (file) => ((await isFile(file)) ? file : null)))).filter(
      (file): file is string => file !== null,
    );
    if (cookieFiles.length > 0) profiles.push({ dir, label, cookieFiles });
  }
  return profiles;
}
