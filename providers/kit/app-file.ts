import { dirname, join } from "node:path";
import { writeAtomically } from "../../adapters/fs/atomic-write.js";
import { followSymlinks } from "../../adapters/fs/follow-symlinks.js";
import { makePrivateDirectory } from "../../adapters/fs/private-directory.js";
import type { Environment } from "../../ports/environment.js";
import { configHome } from "./local-dir.js";
import { readTextIfPresent } from "./local-file.js";

/** More than any session a provider keeps: a larger file is refused unread. */
export const MAX_APP_FILE_BYTES = 1024 * 1024;

/** One file a provider keeps for the user between runs (a session it refreshes). */
export interface AppFile {
  path: string;
  /** The text, or null when there is no such file; a file too large, not a regular file, or unreadable throws. */
  read(): Promise<string | null>;
  /** Replaces the file atomically, owner-only (0600, in a 0700 directory when it has to be made); a symbolic link stays one. */
  write(text: string): Promise<void>;
}

/**
 * A file in quotabar's config directory ($XDG_CONFIG_HOME/quotabar when absolute, else
 * ~/.config/quotabar), for what a provider must keep that is neither config nor cache: a session
 * whose tokens it refreshes.
 */
export function appFile(env: Environment, name: string): AppFile {
  const path = join(configHome(env), "quotabar", name);
  return {
    path,
    read: () => readTextIfPresent(path, MAX_APP_FILE_BYTES),
    async write(text) {
      const target = await followSymlinks(path);
      await makePrivateDirectory(dirname(target));
      await writeAtomically(target, text);
    },
  };
}
