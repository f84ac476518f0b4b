import {
  machineWide,
  cleanSecret,
  dataHome,
  isObject,
  joinPath,
  notConfigured,
  readTextIfPresent,
  tryJson,
  type CredentialSource,
  type Remedy,
} from "../kit/index.js";
import type { Environment } from "../../ports/environment.js";

/** The keys `amp login` writes the API key under in its secrets file (with and without the trailing slash). */
const KEY_NAMES = ["apiKey@https://ampcode.com/", "apiKey@https://ampcode.com"];
/** A secrets file is a few hundred bytes; anything far larger is not Amp's. */
const MAX_FILE_CHARS = 64_000;

export const AMP_LOGIN: Remedy = { kind: "install", tool: "the Amp CLI", url: "https://ampcode.com", command: "amp login" };

/** Where the Amp CLI keeps its API key: $XDG_DATA_HOME/amp/secrets.json, else ~/.local/share/amp/secrets.json. */
export const ampSecretsFile = (env: Environment): string => joinPath(dataHome(env), "amp", "secrets.json");

/** `--source cli` without a key: where it was looked for, and how to get one. */
export const missingCliKey = (env: Environment) => notConfigured(`No Amp CLI API key found in ${ampSecretsFile(env)}.`, AMP_LOGIN);

/**
 * The API key `amp login` stored: `{"apiKey@https://ampcode.com/": "sgamp_user_..."}`. No process
 * is run. A missing, unreadable or foreign file counts as absent, so the settings page still gets
 * its turn; the key itself goes no further than the request's Authorization header.
 */
export const ampCliKey: CredentialSource<string> = machineWide({
  async resolve({ env }) {
    const text = await readTextIfPresent(ampSecretsFile(env)).catch(() => null);
    if (text === null || text.length > MAX_FILE_CHARS) return null;
    const file = tryJson(text);
    if (!isObject(file)) return null;
    for (const name of KEY_NAMES) {
      const key = cleanSecret(file[name]);
      if (key !== null) return key;
    }
    return null;
  },
});
