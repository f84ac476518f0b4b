import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { TextStore } from "../../ports/text-store.js";
import { writeAtomically } from "../fs/atomic-write.js";
import { makePrivateDirectory } from "../fs/private-directory.js";
import { readRegularFile, readRegularFileSync } from "../fs/regular-file.js";
import { acquireLock } from "../fs/file-lock.js";

/**
 * `<dir>/<key>.json`, written atomically in private directories; an unreadable file reads as absent.
 * An update holds `<dir>/<key>.json.lock` while it reads and writes, so processes queue on it.
 */
export class FileTextStore implements TextStore {
  /** Whether the directory is there or could be made; asked once, at the first write. */
  private usable: Promise<boolean> | null = null;

  constructor(
    private readonly dir: string,
    /** Told once per directory that nothing can be kept in it. */
    private readonly report: (message: string) => void = reportOnStderr,
    /**
     * `syncReads`: read with blocking calls (readRegularFileSync), for a status bar's poll, which only
     * reads a few small files. `durable: false`: written without fsync (writeAtomically says what that costs).
     */
    private readonly options: { syncReads?: boolean; durable?: boolean } = {},
  ) {}

  /** Only a regular file is read, and only up to MAX_ENTRY_BYTES: a device, a FIFO or a huge file reads as absent. */
  async read(key: string): Promise<string | null> {
    try {
      const file = this.file(key);
      return this.options.syncReads ? readRegularFileSync(file, MAX_ENTRY_BYTES) : await readRegularFile(file, MAX_ENTRY_BYTES);
    } catch {
      return null;
    }
  }

  /** Nothing is written when the directory cannot be made (reported once): the run goes on without a cache. */
  async write(key: string, text: string): Promise<void> {
    const file = this.file(key);
    if (!(await this.ready(dirname(file)))) return;
    await this.replace(file, text);
  }

  async update(key: string, change: (current: string | null) => string | null): Promise<void> {
    const file = this.file(key);
    if (!(await this.ready(dirname(file)))) {
      change(null); // as without a cache: nothing was kept, and nothing will be
      return;
    }
    const release = await acquireLock(`${file}.lock`);
    try {
      const next = change(await this.read(key));
      if (next !== null) await this.replace(file, next);
    } finally {
      await release();
    }
  }

  private async replace(file: string, text: string): Promise<void> {
    try {
      await writeAtomically(file, text, this.options);
    } catch (error) {
      // something else (a directory) stands where the file goes: heal by replacing it
      if (!["EISDIR", "ENOTEMPTY", "EEXIST", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
      await rm(file, { recursive: true, force: true });
      await writeAtomically(file, text, this.options);
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.file(key), { recursive: true, force: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOTDIR") throw error; // a file where a directory would be: nothing kept under it
    });
  }

  /** `dir` (under the store's directory) made; false when the store's directory itself cannot be. */
  private async ready(dir: string): Promise<boolean> {
    this.usable ??= makePrivateDirectory(this.dir).then(
      () => true,
      (error: unknown) => {
        if (!reported.has(this.dir)) {
          reported.add(this.dir);
          this.report(`cannot keep a cache in ${this.dir} (${reasonOf(error)}); going on without one.`);
        }
        return false;
      },
    );
    if (!(await this.usable)) return false;
    if (dir !== this.dir) await makePrivateDirectory(dir);
    return true;
  }

  private file(key: string): string {
    return join(this.dir, ...key.split("/").map((part) => part.replace(/[^a-z0-9_-]/gi, "_"))) + ".json";
  }
}

/** More than any entry quotabar writes (a history is far smaller): a larger file is not one of them. */
const MAX_ENTRY_BYTES = 16 * 1024 * 1024;

/** Directories already reported, so providers' own stores in the same directory say it once in all. */
const reported = new Set<string>();

function reportOnStderr(message: string): void {
  process.stderr.write(`quotabar: ${message} Set XDG_CACHE_HOME to a directory you can write.\n`);
}

function reasonOf(error: unknown): string {
  const { code, path } = error as NodeJS.ErrnoException;
  if (code === "ENOTDIR") return `${path ?? "part of the path"} is not a directory`;
  if (code === "EACCES" || code === "EPERM") return `permission denied${path ? ` for ${path}` : ""}`;
  if (code === "EROFS") return "read-only file system";
  if (code === "ENOENT") return `${path ?? "it"} cannot be made there`;
  return code ?? String(error);
}
