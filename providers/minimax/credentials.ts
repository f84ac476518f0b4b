import { cleanSecret, fromEnv, type CredentialContext, type CredentialSource } from "../kit/index.js";
import { KEY_ENV } from "./errors.js";

/** Standard keys (sk-api-...) cannot read the coding plan; MiniMax's own client sends them to the web route. */
const STANDARD_KEY_PREFIX = "sk-api-";

/** Config `apiKey` first, then the variables in order; read synchronously too, for the missing-credential message. */
export const configuredKey = (context: CredentialContext) => cleanSecret(context.entry.apiKey) ?? fromEnv(context, KEY_ENV);
export const isStandardKey = (key: string | null) => key?.startsWith(STANDARD_KEY_PREFIX) ?? false;

/** The API token; in auto mode a standard key is left aside so the web route can answer. */
export const minimaxApiToken: CredentialSource<string> = {
  async resolve(context) {
    const key = configuredKey(context);
    return isStandardKey(key) && context.sourceMode === "auto" ? null : key;
  },
};
