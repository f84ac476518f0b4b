import type { QuotabarError } from "../kit/index.js";
import {
  advice,
  cleanSecret,
  homeOf,
  isObject,
  joinPath,
  notConfigured,
  parseError,
  readTextIfPresent,
  tryJson,
  type CredentialSource,
} from "../kit/index.js";
import type { Environment } from "../../ports/environment.js";
import type { GoogleSignIn } from "../kit/google-token.js";

/**
 * Application Default Credentials as `gcloud auth application-default login` leaves them: a Google
 * sign-in (the kit's). Only secrets go in the credential: every string of it is redacted from what the user sees.
 */
export type AdcCredential = GoogleSignIn;

/** $CLOUDSDK_CONFIG, else ~/.config/gcloud (on every system gcloud quotabar runs on). */
export function gcloudDir(env: Environment): string {
  return cleanSecret(env.CLOUDSDK_CONFIG) ?? joinPath(homeOf(env), ".config", "gcloud");
}

const adcPath = (env: Environment): string => joinPath(gcloudDir(env), "application_default_credentials.json");

export const SIGN_IN_COMMAND = "gcloud auth application-default login";

export const adcCredentials: CredentialSource<AdcCredential> = {
  async resolve({ env }) {
    const path = adcPath(env);
    const text = await readTextIfPresent(path).catch((error: unknown) => {
      const reason = (error as NodeJS.ErrnoException).code ?? "error";
      throw notConfigured(`gcloud credentials are unreadable at ${path} (${reason}).`, advice(`Check that your user can read ${path}.`));
    });
    return text === null ? null : adcFrom(text);
  },
};

/** The file's secrets, or the reference's error for a file that cannot be used. */
function adcFrom(text: string): AdcCredential {
  const file = tryJson(text);
  if (!isObject(file)) throw parseError("Failed to decode gcloud credentials: Invalid JSON", signInAgain());
  if (typeof file.client_email === "string" && typeof file.private_key === "string") {
    throw notConfigured(
      `Failed to decode gcloud credentials: Service account credentials not yet supported. Use \`${SIGN_IN_COMMAND}\`.`,
      signInAgain(),
    );
  }
  const clientId = cleanSecret(file.client_id);
  const clientSecret = cleanSecret(file.client_secret);
  if (clientId === null || clientSecret === null) throw notConfigured("gcloud credentials missing client ID or secret.", signInAgain());
  const refreshToken = cleanSecret(file.refresh_token);
  if (refreshToken === null) throw notConfigured("gcloud credentials exist but contain no tokens.", signInAgain());
  const expiry = typeof file.token_expiry === "string" ? Date.parse(file.token_expiry) : NaN;
  const accessToken = cleanSecret(file.access_token);
  return {
    clientId,
    clientSecret,
    refreshToken,
    accessToken: accessToken !== null && Number.isFinite(expiry) ? accessToken : null,
    accessTokenExpiresAt: accessToken !== null && Number.isFinite(expiry) ? expiry : null,
    idToken: cleanSecret(file.id_token),
  };
}

/** No ADC file: install gcloud and sign in with it. */
export function noAdc(env: Environment): QuotabarError {
  return notConfigured(`No Google Cloud application default credentials at ${adcPath(env)}.`, {
    kind: "install",
    tool: "the Google Cloud CLI (gcloud)",
    command: SIGN_IN_COMMAND,
    url: "https://cloud.google.com/sdk/docs/install",
  });
}

export const signInAgain = () => advice(`Sign in again with \`${SIGN_IN_COMMAND}\`.`);
