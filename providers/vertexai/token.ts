import { advice, isObject, QuotabarError, toText, tryJson, type FetchContext } from "../kit/index.js";
import { SIGN_IN_COMMAND, signInAgain, type AdcCredential } from "./adc.js";

/** A fresh access token from the ADC refresh token (secrets in the form body only, never in a URL or a message). */

const TOKEN_URL = "https://oauth2.googleapis.com/token";
const SERVICE = "Google OAuth";
/** A stored token this close to its expiry is refreshed rather than used. */
const EXPIRY_MARGIN_MS = 300_000;

export interface AccessToken {
  token: string;
  /** From the id token's `email` claim, when there is one. */
  email: string | null;
}

export async function accessToken(credential: AdcCredential, { http, now }: FetchContext): Promise<AccessToken> {
  if (credential.accessToken !== null && (credential.accessTokenExpiresAt ?? 0) - EXPIRY_MARGIN_MS > now().getTime()) {
    return { token: credential.accessToken, email: emailOf(credential.idToken) };
  }
  const response = await http
    .request({
      url: TOKEN_URL,
      method: "POST",
      service: SERVICE,
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
  if (response.status === 400 || response.status === 401) throw refused(isObject(body) ? toText(body.error) : null, response.status);
  if (response.status !== 200) {
    throw new QuotabarError("upstream", `Invalid refresh response: Status ${response.status}`, {
      status: response.status,
      remedies: [advice("Google's sign-in service did not answer as expected; try again later."), { kind: "retry" }],
    });
  }
  if (!isObject(body)) throw new QuotabarError("parse", "Invalid refresh response: Invalid JSON");
  const token = toText(body.access_token);
  if (token === null) throw new QuotabarError("parse", "Invalid refresh response: no access_token");
  return { token, email: emailOf(toText(body.id_token)) ?? emailOf(credential.idToken) };
}

/** The reference's words for a refresh Google refused. */
function refused(code: string | null, status: number): QuotabarError {
  if (code === "unauthorized_client") {
    return new QuotabarError("unauthorized", `Refresh token was revoked. Run \`${SIGN_IN_COMMAND}\` again.`, {
      status,
      remedies: [signInAgain()],
    });
  }
  if (code !== null && code !== "invalid_grant") {
    return new QuotabarError("unauthorized", `Invalid refresh response: Error: ${code.slice(0, 80)}`, {
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
  const email = isObject(claims) ? toText(claims.email) : null;
  return email !== null && /^[^\s@]{1,64}@[^\s@]{1,255}$/.test(email) ? email : null;
}
