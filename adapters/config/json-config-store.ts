import { mkdir, open, readFile, stat, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import type { ConfigStore, QuotabarConfig } from "../../ports/config-store.js";
import { writeAtomically } from "../fs/atomic-write.js";
import { ConfigSchema } from "./config-schema.js";
import { findJsonSyntaxProblem } from "./json-syntax-error.js";

/** A config file that cannot be used, with where exactly. The file is left as it is. */
export class ConfigFileError extends Error {
  override name = "ConfigFileError";
  constructor(
    readonly path: string,
    readonly problem: string,
    readonly line: number | null = null,
    readonly column: number | null = null,
  ) {
    super(`${path}${line !== null ? `:${line}:${column ?? 1}` : ""}: ${problem}`);
  }
}

const LOCK_STALE_MS = 10_000;
const LOCK_TIMEOUT_MS = 20_000;

/**
 * The JSON config file of contract section 4: atomic writes (temp file, fsync, rename) at mode 0600,
 * unknown fields kept, a lock file so concurrent writers queue instead of losing each other's change.
 */
export class JsonConfigStore implements ConfigStore {
  constructor(private readonly file: string) {}

  path(): string {
    return this.file;
  }

  async load(): Promise<QuotabarConfig> {
    const text = await this.readText();
    return text === null ? { version: 1, providers: [] } : parseConfig(this.file, text);
  }

  async update(change: (config: QuotabarConfig) => void): Promise<QuotabarConfig> {
    await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
    const release = await this.lock();
    try {
      const config = await this.load();
      change(config);
      await writeAtomically(this.file, `${JSON.stringify(config, null, 2)}\n`);
      return config;
    } finally {
      await release();
    }
  }

  private async readText(): Promise<string | null> {
    try {
      return await readFile(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw new ConfigFileError(this.file, `cannot read: ${(error as Error).message}`);
    }
  }

  private async lock(): Promise<() => Promise<void>> {
    const lockPath = `${this.file}.lock`;
    const started = Date.now();
    for (;;) {
      try {
        const handle = await open(lockPath, "wx", 0o600);
        await handle.close();
        return () => unlink(lockPath).catch(() => undefined);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const age = await stat(lockPath).then(
          (s) => Date.now() - s.mtimeMs,
          () => 0,
        );
        if (age > LOCK_STALE_MS) await unlink(lockPath).catch(() => undefined); // a writer died holding it
        if (Date.now() - started > LOCK_TIMEOUT_MS)
          throw new ConfigFileError(this.file, `still locked by ${lockPath}; remove it if no quotabar is running`);
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
      }
    }
  }
}

export function parseConfig(path: string, text: string): QuotabarConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    const found = findJsonSyntaxProblem(text);
    throw new ConfigFileError(path, `invalid JSON: ${found?.problem ?? "cannot parse"}`, found?.line ?? null, found?.column ?? null);
  }
  const result = ConfigSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("") ?? "";
    throw new ConfigFileError(path, `${where.replace(/^\./, "") || "root"}: ${issue?.message ?? "invalid"}`);
  }
  return result.data as QuotabarConfig;
}
