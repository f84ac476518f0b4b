import { QuotabarError, toText, isObject, type FetchContext } from "../kit/index.js";
import {
  forgetKeptGoogleToken,
  googleAccessToken,
  mintedGoogleToken,
  type GoogleAccessToken,
  type RefreshRefusal,
} from "../kit/google-token.js";
import { SIGN_IN_COMMAND, signInAgain, type AdcCredential } from "./adc.js";

/**
 * The access token for Cloud Monitoring (the kit's Google token: the ADC file's own while it is
 * valid, else the kept one, else a fresh one from the ADC refresh token), with gcloud's words for a refusal.
 */

export type AccessToken = GoogleAccessToken;

export const accessToken = (credential: AdcCredential, context: FetchContext): Promise<AccessToken> =>
  googleAccessToken(credential, context, refused);

/** The kept token was refused: it is not offered again. */
export const forgetKeptToken = forgetKeptGoogleToken;

/** A token minted now from the refresh token, and kept (secret store) until 5 minutes before it expires. */
export const refreshedToken = (credential: AdcCredential, context: FetchContext): Promise<AccessToken> =>
  mintedGoogleToken(credential, context, refused);

/** The reference's words for a refresh Google refused (an unknown error code quoted, redacted then cut). */
const refused: RefreshRefusal = (status, body, http) => {
  const code = isObject(body) ? toText(body.error) : null;
  if (code === "unauthorized_client") {
    return new QuotabarError("unauthorized", `Refresh token was revoked. Run \`${SIGN_IN_COMMAND}\` again.`, {
      status,
      remedies: [signInAgain()],
    });
  }
  if (code !== null && code !== "invalid_grant") {
    return new QuotabarError("unauthorized", `Invalid refresh response: Error: ${http.excerpt(code, { maxChars: 80 })}`, {
      status,
      remedies: [signInAgain()],
    });
  }
  return new QuotabarError("expired", `Refresh token has expired. Run \`${SIGN_IN_COMMAND}\` again.`, {
    status,
    remedies: [signInAgain()],
  });
};
