import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import { UnreadableFileError } from "../fs/regular-file.js";
import { ConfigFileError } from "./config-file-error.js";

const ELSEWHERE = "or point --config or QUOTABAR_CONFIG at a file in a directory you can write";

/**
 * A failed read or write of the config file, in words: what is wrong, where, and what to do.
 * Node's own message is left out (it names temp and lock files); the error code stays, in brackets.
 */
export async function configIoError(file: string, action: "read" | "write", error: unknown): Promise<ConfigFileError> {
  if (error instanceof ConfigFileError) return error;
  if (error instanceof UnreadableFileError && error.code !== "EISDIR") {
    const hint =
      error.code === "EFBIG"
        ? "A config file is a small JSON file: check that --config or QUOTABAR_CONFIG names the right one."
        : "quotabar reads its config from a regular file only: point --config or QUOTABAR_CONFIG at one.";
    return new ConfigFileError(file, `cannot ${action}: ${error.problem} (${error.code})`, null, null, hint);
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "unknown error";
  const dir = dirname(file);
  const fail = (problem: string, hint: string) => new ConfigFileError(file, `cannot ${action}: ${problem} (${code})`, null, null, hint);
  switch (code) {
    case "EACCES":
    case "EPERM":
      return action === "read"
        ? fail("permission denied", `Give your user read access to ${file} (ls -l shows its owner), ${ELSEWHERE}.`)
        : fail(`permission denied in ${dir}`, `Make ${dir} and ${file} writable for your user (chown or chmod u+w), ${ELSEWHERE}.`);
    case "EROFS":
      return fail(`${dir} is on a read-only file system`, `Remount it read-write, ${ELSEWHERE}.`);
    case "ENOTDIR":
    case "EEXIST": {
      const blocker = await firstNonDirectory(dir);
      if (blocker === null) return fail("part of the path is not a directory", `Check each directory on the way to ${file}, ${ELSEWHERE}.`);
      return fail(`${blocker} is a file, not a directory`, `Move ${blocker} out of the way, ${ELSEWHERE}.`);
    }
    case "EISDIR":
      return fail(`${file} is a directory, not a file`, `Move that directory out of the way, ${ELSEWHERE}.`);
    case "ENOSPC":
    case "EDQUOT":
      return fail(`no space left on the device that holds ${dir}`, "Free some space and run the command again.");
    case "ENAMETOOLONG":
      return fail("the path is too long for the file system", "Point --config or QUOTABAR_CONFIG at a shorter path.");
    case "ELOOP":
      return fail("too many symbolic links on the way", `Check the symbolic links that lead to ${file}.`);
    default:
      return fail("the file system refused", `Check ${file} and its directory, ${ELSEWHERE}.`);
  }
}

/** The ancestor of `dir` (itself included) that exists but is no directory: what stops the path. */
async function firstNonDirectory(dir: string): Promise<string | null> {
  let blocker: string | null = null;
  for (let current = dir; ; current = dirname(current)) {
    const stats = await stat(current).catch(() => null);
    if (stats && !stats.isDirectory()) blocker = current;
    if (dirname(current) === current) return blocker;
  }
}
