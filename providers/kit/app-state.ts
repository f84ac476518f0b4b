import { parseError } from "../../domain/errors.js";
import type { CredentialContext } from "../../ports/fetch-context.js";

/**
 * The values of `keys` in another app's VS Code-style state database (`ItemTable`), read from a
 * private copy: the app's file is never written. Null when there is no such file, or no reader in
 * this composition; a file that cannot be read is a parse error naming it (never its content).
 */
export async function appStateValues(
  context: CredentialContext,
  app: string,
  path: string,
  keys: readonly string[],
): Promise<Record<string, string> | null> {
  const reader = context.browsers.appState;
  if (!reader) return null;
  try {
    return await reader.read(path, keys);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // "<path> is a directory, not a file" says the path once, in the sentence's start
    const why = message.startsWith(`${path} is `) ? message.slice(path.length + 4) : message;
    throw parseError(`${app}'s sign-in could not be read from ${path}: ${why}`);
  }
}
