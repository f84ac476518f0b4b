import { fromEnv, isObject, QuotabarError, toText, type FetchContext } from "../kit/index.js";
import {
  fileTokenValid,
  forgetKeptGoogleToken,
  googleAccessToken,
  idTokenEmail,
  mintedGoogleToken,
  type GoogleAccessToken,
  type GoogleSignIn,
  type RefreshRefusal,
} from "../kit/google-token.js";
import { SIGN_IN_COMMAND, signInAgain, type GeminiCredential } from "./credentials.js";
import { consumerRefused, isConsumerRefusal } from "./refusal.js";

/**
 * The Gemini CLI's public installed-app OAuth client (packages/core/src/code_assist/oauth2.ts: the
 * CLI ships it, as an installed application may). GEMINI_OAUTH_CLIENT_ID and _SECRET replace it.
 */
const CLIENT_ID = "681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com";
const CLIENT_SECRET = "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";

/**
 * The access token: the CLI file's own while it is valid, else the one quotabar minted and kept,
 * else one minted now, in memory and in quotabar's secret store only. ~/.gemini is never written.
 */
export async function geminiToken(credential: GeminiCredential, context: FetchContext): Promise<GoogleAccessToken> {
  const signIn = signInOf(credential, context);
  if (signIn !== null) return googleAccessToken(signIn, context, refused);
  // no refresh token: the file's token is all there is
  if (credential.accessToken !== null && fileTokenValid(credential, context.now())) {
    return { token: credential.accessToken, email: idTokenEmail(credential.idToken), kept: false };
  }
  throw new QuotabarError(
    "expired",
    `Gemini CLI sign-in has expired and holds no refresh token. Run \`${SIGN_IN_COMMAND}\` to sign in again.`,
    {
      remedies: [signInAgain()],
    },
  );
}

/** A fresh token after Google refused the kept one (one refresh, never a loop); null without a refresh token. */
export async function remintedToken(credential: GeminiCredential, context: FetchContext): Promise<GoogleAccessToken | null> {
  const signIn = signInOf(credential, context);
  if (signIn === null) return null;
  await forgetKeptGoogleToken(context);
  return mintedGoogleToken(signIn, context, refused);
}

function signInOf(credential: GeminiCredential, context: FetchContext): GoogleSignIn | null {
  if (credential.refreshToken === null) return null;
  const id = fromEnv(context, ["GEMINI_OAUTH_CLIENT_ID"]);
  const secret = fromEnv(context, ["GEMINI_OAUTH_CLIENT_SECRET"]);
  const custom = id !== null && secret !== null;
  return {
    ...credential,
    refreshToken: credential.refreshToken,
    clientId: custom ? id : CLIENT_ID,
    clientSecret: custom ? secret : CLIENT_SECRET,
  };
}

/** A refused refresh: the June 2026 refusal by its words, else a sign-in to make again. */
const refused: RefreshRefusal = (status, body) => {
  if (isConsumerRefusal(JSON.stringify(body ?? ""))) return consumerRefused(status);
  const code = isObject(body) ? toText(body.error) : null;
  return new QuotabarError(
    code === "invalid_client" ? "unauthorized" : "expired",
    code === "invalid_client"
      ? "Google refused the Gemini CLI's OAuth client. Update the Gemini CLI, or set GEMINI_OAUTH_CLIENT_ID and GEMINI_OAUTH_CLIENT_SECRET."
      : `Gemini CLI sign-in has expired or was revoked. Run \`${SIGN_IN_COMMAND}\` to sign in again.`,
    { status, remedies: [signInAgain()] },
  );
};
