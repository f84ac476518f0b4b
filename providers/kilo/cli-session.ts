import {
  machineWide,
  advice,
  cleanSecret,
  dataHome,
  joinPath,
  QuotabarError,
  readTextIfPresent,
  tryJson,
  valueAt,
  type CredentialSource,
} from "../kit/index.js";
import type { Environment } from "../../ports/environment.js";

/** Where `kilo login` keeps its session: $XDG_DATA_HOME/kilo/auth.json, else ~/.local/share/kilo/auth.json. */
export const kiloAuthFile = (env: Environment): string => joinPath(dataHome(env), "kilo", "auth.json");

/**
 * The Kilo CLI session: no process is run, the access token in the CLI's auth file is the bearer of
 * the same API. A missing file means "no credential here"; a file that exists but cannot be used is
 * an error the user has to fix.
 */
export const kiloCliSession: CredentialSource<string> = machineWide({
  async resolve(context) {
    const path = kiloAuthFile(context.env);
    const text = await readTextIfPresent(path).catch((error: unknown) => {
      throw new QuotabarError(
        "not_configured",
        `Kilo CLI session file is unreadable at ${path}. Fix permissions or run \`kilo login\` again.`,
        {
          remedies: [advice(`Check that your user can read ${path}.`)],
          cause: error,
        },
      );
    });
    if (text === null) return null;
    // `{"kilo": {"access": "<token>", ...}}`
    const token = cleanSecret(valueAt(tryJson(text), "kilo.access"));
    if (token === null) {
      throw new QuotabarError("parse", `Kilo CLI session file is invalid at ${path}. Run \`kilo login\` to refresh auth.json.`, {
        remedies: [advice("The file must be JSON with a kilo.access token.")],
      });
    }
    return token;
  },
});
