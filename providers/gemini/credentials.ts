import {
  advice,
  cleanSecret,
  isObject,
  joinPath,
  notConfigured,
  toNumber,
  type CredentialContext,
  type CredentialSource,
  type QuotabarError,
} from "../kit/index.js";
import { readSignInFile, unusable, type VendorSignIn } from "../kit/vendor-sign-in.js";
import { credentialsPath, geminiDir } from "./gemini-dir.js";
import { NO_QUOTA_AUTH, selectedAuthType } from "./settings.js";

/**
 * The Gemini CLI's own sign-in ("Login with Google"), read only: quotabar never writes the file,
 * and keeps what it mints in its own store. Only secrets go in the credential (every string of it
 * is redacted from what the user sees); the expiry is a number.
 */
export interface GeminiCredential {
  accessToken: string | null;
  /** Epoch milliseconds, as the CLI writes `expiry_date`. */
  accessTokenExpiresAt: number | null;
  refreshToken: string | null;
  /** Names the account (`email`) and a Workspace account's hosted domain (`hd`). */
  idToken: string | null;
}

export const SIGN_IN_COMMAND = "gemini";
/** The Gemini CLI's sign-in file, read as the kit reads every other program's: bounded, never written. */
const GEMINI_CLI: VendorSignIn = { vendor: "The Gemini CLI", command: SIGN_IN_COMMAND };
export const signInAgain = () => advice(`Run \`${SIGN_IN_COMMAND}\` and choose Login with Google to sign in again.`);

export const geminiCredentials: CredentialSource<GeminiCredential> = {
  async resolve(context) {
    const dir = geminiDir(context);
    const auth = await selectedAuthType(dir);
    const other = auth === null ? undefined : NO_QUOTA_AUTH[auth.toLowerCase()];
    if (other !== undefined) throw noQuotaToShow(other, joinPath(dir, "settings.json"));
    const path = joinPath(dir, "oauth_creds.json");
    const file = await readSignInFile(path, path, GEMINI_CLI);
    return file === null ? null : credentialFrom(file, path);
  },
};

/** The file's tokens, or an error naming the file (never quoting it). */
function credentialFrom(file: unknown, path: string): GeminiCredential {
  if (!isObject(file)) throw unusable(path, "is not a JSON object", GEMINI_CLI);
  const accessToken = cleanSecret(file.access_token);
  const refreshToken = cleanSecret(file.refresh_token);
  if (accessToken === null && refreshToken === null) throw unusable(path, "holds no token", GEMINI_CLI);
  const expiry = toNumber(file.expiry_date);
  return {
    accessToken,
    // epoch milliseconds; a value in seconds (some tools write one) is told apart by its size
    accessTokenExpiresAt: expiry === null || expiry <= 0 ? null : expiry < 1e11 ? expiry * 1000 : expiry,
    refreshToken,
    idToken: cleanSecret(file.id_token),
  };
}

/** An API-key or Vertex AI user of the CLI: Google keeps no quota a sign-in could read for them. */
function noQuotaToShow(how: string, settingsPath: string): QuotabarError {
  return notConfigured(
    `Gemini CLI is set to use ${how} (${settingsPath}): Google keeps no quota for it that quotabar can read. Only Login with Google has a quota to show.`,
    advice(
      `See ${how === "Vertex AI" ? "Vertex AI's usage in the Google Cloud console (quotabar's vertexai provider)" : "the key's usage in Google AI Studio"}.`,
    ),
  );
}

/** No sign-in file: sign in with the Gemini CLI. */
export function noSignIn(context: CredentialContext): QuotabarError {
  return notConfigured(`No Gemini CLI sign-in at ${credentialsPath(context)}.`, {
    kind: "install",
    tool: "the Gemini CLI",
    command: SIGN_IN_COMMAND,
    url: "https://github.com/google-gemini/gemini-cli",
  });
}
