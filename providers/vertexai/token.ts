import { advice, isObject, QuotabarError, toNumber, toText, tryJson, type FetchContext } from "../kit/index.js";
import { SIGN_IN_COMMAND, signInAgain, type AdcCredential } from "./adc.js";

/**
 * The access token for Cloud Monitoring: the ADC file's own while it is valid, else the one minted
 * in an earlier run and kept in the secret store (no round trip), else a fresh one from the ADC
 * refresh token (secrets in the form body only, never in a URL or a message), kept for the next runs.
 */

const TOKEN_URL = "https://oauth2.googleapis.com/token";
const SERVICE = "Google OAuth";
/** A stored token this close to its expiry is refreshed rather than used. */
const EXPIRY_MARGIN_MS = 300_000;
/** Google's tokens live an hour; `expires_in` is what it says, this when it says nothing usable. */
const DEFAULT_LIFETIME_S = 3600;
/** No Google access token lives longer (12 hours at most): a larger `expires_in` is not believed. */
const MAX_LIFETIME_S = 43_200;
/** Names of what is kept between runs (scoped to this credential). */
const KEPT_TOKEN = "accessToken";
const KEPT_ACCOUNT = "account";

export interface AccessToken {
  token: string;
  /** From the id token's `email` claim, when there is one. */
  email: string | null;
  /** Kept from an earlier run: Google may have revoked it since, so a 401 with it is worth one refresh. */
  kept: boolean;
}

export async function accessToken(credential: AdcCredential, context: FetchContext): Promise<AccessToken> {
  if (credential.accessToken !== null && (credential.accessTokenExpiresAt ?? 0) - EXPIRY_MARGIN_MS > context.now().getTime()) {
    return { token: credential.accessToken, email: emailOf(credential.idToken), kept: false };
  }
  const [kept, account] = await Promise.all([context.kept.readSecret(KEPT_TOKEN), context.kept.read(KEPT_ACCOUNT)]);
  if (kept !== null) {
    return { token: kept, email: validEmail(account) ?? emailOf(credential.idToken), kept: true };
  }
  return refreshedToken(credential, context);
}

/** The kept token was refused: it is not offered again. */
export const forgetKeptToken = (context: FetchContext): Promise<void> => context.kept.forget(KEPT_TOKEN);

/** A token minted now from the refresh token, and kept (secret store) until 5 minutes before it expires. */
export async function refreshedToken(credential: AdcCredential, context: FetchContext): Promise<AccessToken> {
  const response = await context.http
    .request({
      url: TOKEN_URL,
      method: "POST",
      service: SERVICE,
      // a token endpoint: a redirect (which would resend the client secret and refresh token) is an error
      redirect: "refuse",
      headers: { Accept: "application/json" },
      form: {
        client_id: credential.clientId,
        client_secret: credential.clientSecret,
        refresh_token: credential.refreshToken,
        grant_type: "refresh_token",
      },
      statusRules: { "4xx": "pass", "5xx": "pass" },
    })
    .catch((error: QuotabarError) => {
      if (error.code !== "network") throw error;
      throw new QuotabarError("network", `Network error during token refresh: ${error.message}`, {
        remedies: error.remedies,
        cause: error,
      });
    });
  const body = tryJson(response.body);
  if (response.status === 400 || response.status === 401)
    throw refused(isObject(body) ? toText(body.error) : null, response.status, context.http);
  if (response.status !== 200) {
    throw new QuotabarError("upstream", `Invalid refresh response: Status ${response.status}`, {
      status: response.status,
      remedies: [advice("Google's sign-in service did not answer as expected; try again later."), { kind: "retry" }],
    });
  }
  if (!isObject(body)) throw new QuotabarError("parse", "Invalid refresh response: Invalid JSON");
  const token = toText(body.access_token);
  if (token === null) throw new QuotabarError("parse", "Invalid refresh response: no access_token");
  const email = emailOf(toText(body.id_token)) ?? emailOf(credential.idToken);
  const seconds = toNumber(body.expires_in);
  const lifetime = seconds !== null && seconds > 0 ? Math.min(seconds, MAX_LIFETIME_S) : DEFAULT_LIFETIME_S;
  const ttl = lifetime * 1000 - EXPIRY_MARGIN_MS;
  // the account is no secret (the document shows it), and it is what the kept token does not tell
  if (ttl > 0) {
    await Promise.all([
      context.kept.writeSecret(KEPT_TOKEN, token, ttl),
      email === null ? undefined : context.kept.write(KEPT_ACCOUNT, email, ttl),
    ]);
  }
  return { token, email, kept: false };
}

/** The reference's words for a refresh Google refused (an unknown error code quoted, redacted then cut). */
function refused(code: string | null, status: number, http: FetchContext["http"]): QuotabarError {
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
}

const MAX_ID_TOKEN = 16_384;

/** The `email` claim of an id token (a JWT; its signature does not matter for showing who is signed in). */
function emailOf(idToken: string | null): string | null {
  if (idToken === null || idToken.length > MAX_ID_TOKEN) return null;
  const payload = idToken.split(".")[1];
  if (!payload) return null;
  const claims = tryJson(Buffer.from(payload, "base64url").toString("utf8"));
  return isObject(claims) ? validEmail(claims.email) : null;
}

/** An address to show, or null (also for what a damaged kept record holds). */
function validEmail(value: unknown): string | null {
  const email = toText(value);
  return email !== null && /^[^\s@]{1,64}@[^\s@]{1,255}$/.test(email) ? email : null;
}
