import { lstat, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { SecretStore } from "../../ports/browser-credentials.js";
import { writeAtomically } from "../fs/atomic-write.js";
import { makePrivateDirectory } from "../fs/private-directory.js";

/** A secrets file bigger than this is not ours (or not a secrets file): it reads as empty. */
const MAX_BYTES = 1_000_000;

/**
 * Secrets in one JSON file at mode 0600 (`secrets.json` beside the config file): where Linux has
 * no Secret Service, the OS store @napi-rs/keyring would fall back to is the kernel keyring, which
 * belongs to the user and not to a HOME, so every HOME would see every other's entries. A file
 * under the config directory is seen only by runs that use that directory. Writes are atomic;
 * two processes writing at once may lose one entry, which costs one more browser read.
 */
export class FileSecretStore implements SecretStore {
  /** Providers refresh concurrently: one read-modify-write at a time, or one would undo another's. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly file: string) {}

  async get(service: string, account: string): Promise<string | null> {
    return this.serially(async () => (await this.load())[key(service, account)] ?? null);
  }

  async set(service: string, account: string, secret: string): Promise<void> {
    await this.serially(async () => {
      const entries = await this.load();
      entries[key(service, account)] = secret;
      await this.save(entries);
    });
  }

  async delete(service: string, account: string): Promise<boolean> {
    return this.serially(async () => {
      const entries = await this.load();
      if (!(key(service, account) in entries)) return false;
      delete entries[key(service, account)];
      await this.save(entries);
      return true;
    });
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async load(): Promise<Record<string, string>> {
    try {
      const info = await lstat(this.file);
      if (!info.isFile() || info.size > MAX_BYTES) return {};
      const parsed = JSON.parse(await readFile(this.file, "utf8")) as { entries?: unknown };
      const entries = parsed.entries && typeof parsed.entries === "object" ? (parsed.entries as Record<string, unknown>) : {};
      return Object.fromEntries(Object.entries(entries).filter((e): e is [string, string] => typeof e[1] === "string"));
    } catch {
      return {}; // absent or unreadable: nothing kept, the next write replaces it
    }
  }

  private async save(entries: Record<string, string>): Promise<void> {
    await makePrivateDirectory(dirname(this.file)); // not mkdir -p: under /proc that one spins
    await writeAtomically(this.file, `${JSON.stringify({ version: 1, entries }, null, 2)}\n`);
  }
}

const key = (service: string, account: string) => `${service}/${account}`;
