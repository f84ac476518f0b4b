import { readFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { QuotabarError } from "../../domain/errors.js";
import type { CredentialSource } from "../../ports/credential-source.js";
import type { Environment } from "../../ports/environment.js";
import { homeOf } from "../config/config-path.js";
import { cleanSecret } from "../http/api-key-credential.js";

/** Where `kilo login` keeps its session: $XDG_DATA_HOME/kilo/auth.json, else ~/.local/share/kilo/auth.json. */
export function kiloAuthFilePath(env: Environment): string {
  const xdg = env.XDG_DATA_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "kilo", "auth.json");
  return join(homeOf(env), ".local", "share", "kilo", "auth.json");
}

export const kiloSessionNotFound = (path: string) =>
  new QuotabarError(
    "not_configured",
    `Kilo CLI session not found at ${path}. Run \`kilo login\` to create ~/.local/share/kilo/auth.json.`,
    {
      hint: "Install the Kilo CLI and run `kilo login`, or set KILO_API_KEY (providers[kilo].apiKey) and use source api.",
    },
  );

/**
 * The Kilo CLI session (spec: "CLI session"): no process is run, the access token in the CLI's
 * auth file is used as the bearer of the same API. A missing file means "no credential here";
 * a file that exists but cannot be used is an error the user has to fix.
 */
export const kiloCliSession: CredentialSource<string> = {
  async resolve(context) {
    const path = kiloAuthFilePath(context.env);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw new QuotabarError(
        "not_configured",
        `Kilo CLI session file is unreadable at ${path}. Fix permissions or run \`kilo login\` again.`,
        { hint: `Check that your user can read ${path}.`, cause: error },
      );
    }
    const token = accessToken(text);
    if (token === null) {
      throw new QuotabarError("parse", `Kilo CLI session file is invalid at ${path}. Run \`kilo login\` to refresh auth.json.`, {
        hint: "The file must be JSON with a kilo.access token.",
      });
    }
    return token;
  },
};

/** `{"kilo": {"access": "<token>", ...}}` -> the token. */
function accessToken(text: string): string | null {
  try {
    const parsed = JSON.parse(text) as { kilo?: { access?: unknown } } | null;
    return cleanSecret(parsed?.kilo?.access);
  } catch {
    return null;
  }
}
