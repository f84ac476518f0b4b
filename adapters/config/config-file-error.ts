/**
 * A config file that cannot be used, with where exactly and what to do. The file is left as it is.
 * The message names the file and never quotes its contents (they may hold secrets).
 */
export class ConfigFileError extends Error {
  override name = "ConfigFileError";
  constructor(
    readonly path: string,
    readonly problem: string,
    readonly line: number | null = null,
    readonly column: number | null = null,
    readonly hint: string | null = null,
  ) {
    super(`${path}${line !== null ? `:${line}:${column ?? 1}` : ""}: ${problem}`);
  }
}
