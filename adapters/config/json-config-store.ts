import { dirname } from "node:path";
import type { ConfigStore, QuotabarConfig } from "../../ports/config-store.js";
import { writeAtomically } from "../fs/atomic-write.js";
import { acquireLock, LockTimeoutError } from "../fs/file-lock.js";
import { followSymlinks } from "../fs/follow-symlinks.js";
import { makePrivateDirectory } from "../fs/private-directory.js";
import { readRegularFile, readRegularFileSync } from "../fs/regular-file.js";
import { ConfigFileError } from "./config-file-error.js";
import { configIoError } from "./config-io-error.js";
import { parseConfig } from "./parse-config.js";

export { ConfigFileError } from "./config-file-error.js";

/** Far more than a config file holds (keys and cookie headers of every provider): a larger one is refused unread. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The JSON config file of contract section 4: atomic writes (temp file, fsync, rename) at mode 0600,
 * unknown fields kept, a lock file so concurrent writers queue instead of losing each other's change.
 * A symbolic link is written through: the link stays, its target gets the new content. A byte order
 * mark is accepted on read and not written back. Only a regular file of at most 1 MiB is read.
 */
export class JsonConfigStore implements ConfigStore {
  constructor(
    private readonly file: string,
    /** Read with blocking calls (readRegularFileSync): for a status bar's poll, which only reads a few small files. */
    private readonly options: { syncReads?: boolean } = {},
  ) {}

  path(): string {
    return this.file;
  }

  async load(): Promise<QuotabarConfig> {
    const text = await this.readText();
    return text === null ? { version: 1, providers: [] } : parseConfig(this.file, text);
  }

  async update(change: (config: QuotabarConfig) => void): Promise<QuotabarConfig> {
    const target = await followSymlinks(this.file).catch(async (error: unknown) => {
      throw await configIoError(this.file, "write", error);
    });
    const release = await this.lock(target);
    try {
      const config = await this.load();
      change(config);
      await writeAtomically(target, `${JSON.stringify(config, null, 2)}\n`).catch(async (error: unknown) => {
        throw await configIoError(target, "write", error);
      });
      return config;
    } finally {
      await release();
    }
  }

  private async readText(): Promise<string | null> {
    try {
      // a regular file only: /dev/urandom or a FIFO is refused before anything is read
      return this.options.syncReads ? readRegularFileSync(this.file, MAX_CONFIG_BYTES) : await readRegularFile(this.file, MAX_CONFIG_BYTES);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw await configIoError(this.file, "read", error);
    }
  }

  /** `<target>.lock`, next to the file that is replaced, so writers through different links queue too. */
  private async lock(target: string): Promise<() => Promise<void>> {
    const lockPath = `${target}.lock`;
    try {
      await makePrivateDirectory(dirname(target));
      return await acquireLock(lockPath);
    } catch (error) {
      if (error instanceof LockTimeoutError)
        throw new ConfigFileError(this.file, `still locked by ${lockPath}; remove it if no quotabar is running`);
      throw await configIoError(target, "write", error);
    }
  }
}
