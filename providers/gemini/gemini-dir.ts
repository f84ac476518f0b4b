import { advice, cleanSecret, homeOf, joinPath, notConfigured, type CredentialContext } from "../kit/index.js";

/**
 * The Gemini CLI's folder: the config entry's `geminiDir` (one per account), else
 * `$GEMINI_CLI_HOME/.gemini` (the CLI's own override of the home), else `~/.gemini`.
 */
export function geminiDir(context: Pick<CredentialContext, "env" | "entry">): string {
  const configured = cleanSecret(context.entry.geminiDir);
  if (configured !== null) {
    const dir = configured === "~" || configured.startsWith("~/") ? joinPath(homeOf(context.env), configured.slice(1)) : configured;
    if (!dir.startsWith("/")) {
      throw notConfigured(
        "The gemini entry's geminiDir must be an absolute path (or start with ~/).",
        advice('Set "geminiDir" to the folder holding oauth_creds.json, e.g. "~/.gemini".'),
      );
    }
    return dir;
  }
  const cliHome = cleanSecret(context.env.GEMINI_CLI_HOME);
  return joinPath(cliHome !== null && cliHome.startsWith("/") ? cliHome : homeOf(context.env), ".gemini");
}

export const credentialsPath = (context: Pick<CredentialContext, "env" | "entry">): string =>
  joinPath(geminiDir(context), "oauth_creds.json");
