import { mkdir, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { TextStore } from "../../ports/text-store.js";
import { writeAtomically } from "../fs/atomic-write.js";
import { acquireLock } from "../fs/file-lock.js";

/**
 * `<dir>/<key>.json`, written atomically in private directories; an unreadable file reads as absent.
 * An update holds `<dir>/<key>.json.lock` while it reads and writes, so processes queue on it.
 */
export class FileTextStore implements TextStore {
  constructor(private readonly dir: string) {}

  async read(key: string): Promise<string | null> {
    try {
      return await readFile(this.file(key), "utf8");
    } catch {
      return null;
    }
  }

  async write(key: string, text: string): Promise<void> {
    const file = this.file(key);
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await this.replace(file, text);
  }

  async update(key: string, change: (current: string | null) => string | null): Promise<void> {
    const file = this.file(key);
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
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
      await writeAtomically(file, text);
    } catch (error) {
      // something else (a directory) stands where the file goes: heal by replacing it
      if (!["EISDIR", "ENOTEMPTY", "EEXIST", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
      await rm(file, { recursive: true, force: true });
      await writeAtomically(file, text);
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.file(key), { recursive: true, force: true });
  }

  private file(key: string): string {
    return join(this.dir, ...key.split("/").map((part) => part.replace(/[^a-z0-9_-]/gi, "_"))) + ".json";
  }
}
