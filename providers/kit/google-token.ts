import { toNumber, toText } from "../../domain/coerce.js";
import { tryJson } from "../../domain/decode-body.js";
import { QuotabarError } from "../../domain/errors.js";
import { advice } from "../../domain/remedy.js";
import type { FetchContext } from "../../ports/fetch-context.js";
import { jwtClaims } from "./jwt.js";
import { isObject, type JsonObject } from "./search.js";

/**
 * A Google access token for a sign-in another program made (gcloud's ADC, the Gemini CLI): the
 * file's own while it is valid, else the one minted in an earlier run and kept in quotabar's secret
 * store (no round trip), else a fresh one from the refresh token (secrets in the form body only,
 * never in a URL or a message), kept for the next runs. The other program's file is never written:
 * Google's refresh tokens do not rotate, so minting leaves its sign-in as it was.
 */

export interface GoogleSignIn {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  /** The file's access token, when it carries one with its expiry (epoch ms). */
  accessToken: string | null;
  accessTokenExpiresAt: number | null;
  /** Carries the account's email (and a Workspace account's hosted domain) in its payload. */
  idToken: string | null;
}

export interface GoogleAccessToken {
  token: string;
  /** From the id token's `email` claim, when there is one. */
  email: string | null;
  /** Kept from an earlier run: Google may have revoked it since, so a 401 with it is worth one refresh. */
  kept: boolean;
}

/** The provider's words for a refresh Google refused (400 or 401), from the status and the parsed body. */
export type RefreshRefusal = (status: number, body: unknown, http: FetchContext["http"]) => QuotabarError;

const TOKEN_URL = "https://oauth2.googleapis.com/token";
const SERVICE = "Google OAuth";
/** A token this close to its expiry is refreshed rather than used. */
const EXPIRY_MARGIN_MS = 300_000;
/** Google's tokens live an hour; `expires_in` is what it says, this when it says nothing usable. */
const DEFAULT_LIFETIME_S = 3600;
/** No Google access token lives longer (12 hours at most): a larger `expires_in` is not believed. */
const MAX_LIFETIME_S = 43_200;
/** Names of what is kept between runs (scoped to this credential). */
const KEPT_TOKEN = "accessToken";
const KEPT_ACCOUNT = "account";

/** Whether the file's own token is still good for this run. */
export function fileTokenValid(signIn: Pick<GoogleSignIn, "accessToken" | "accessTokenExpiresAt">, now: Date): boolean {
  return signIn.accessToken !== null && (signIn.accessTokenExpiresAt ?? 0) - EXPIRY_MARGIN_MS > now.getTime();
}

export async function googleAccessToken(signIn: GoogleSignIn, context: FetchContext, refused: RefreshRefusal): Promise<GoogleAccessToken> {
  if (signIn.accessToken !== null && fileTokenValid(signIn, context.now())) {
    return { token: signIn.accessToken, email: idTokenEmail(signIn.idToken), kept: false };
  }
  const [kept, account] = await Promise.all([context.kept.readSecret(KEPT_TOKEN), context.kept.read(KEPT_ACCOUNT)]);
  if (kept !== null) {
    return { token: kept, email: validEmail(account) ?? idTokenEmail(signIn.idToken), kept: true };
  }
  return mintedGoogleToken(signIn, context, refused);
}

/** The kept token was refused: it is not offered again. */
export const forgetKeptGoogleToken = (context: FetchContext): Promise<void> => context.kept.forget(KEPT_TOKEN);

/** A token minted now from the refresh token, and kept (secret store) until 5 minutes before it expires. */
export async function mintedGoogleToken(signIn: GoogleSignIn, context: FetchContext, refused: RefreshRefusal): Promise<GoogleAccessToken> {
  const response = await context.http
    .request({
      url: TOKEN_URL,
      method: "POST",
      service: SERVICE,
      // a token endpoint: a redirect (which would resend the client secret and refresh token) is an error
      redirect: "refuse",
      headers: { Accept: "application/json" },
      form: {
        client_id: signIn.clientId,
        client_secret: signIn.clientSecret,
        refresh_token: signIn.refreshToken,
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
  if (response.status === 400 || response.status === 401) throw refused(response.status, body, context.http);
  if (response.status !== 200) {
    throw new QuotabarError("upstream", `Invalid refresh response: Status ${response.status}`, {
      status: response.status,
      remedies: [advice("Google's sign-in service did not answer as expected; try again later."), { kind: "retry" }],
    });
  }
  if (!isObject(body)) throw new QuotabarError("parse", "Invalid refresh response: Invalid JSON");
  const token = toText(body.access_token);
  if (token === null) throw new QuotabarError("parse", "Invalid refresh response: no access_token");
  const email = idTokenEmail(toText(body.id_token)) ?? idTokenEmail(signIn.idToken);
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

/** The claims of an id token (a JWT; its signature does not matter for showing who is signed in). */
export const idTokenClaims = (idToken: string | null): JsonObject | null => (idToken === null ? null : jwtClaims(idToken));

/** The `email` claim of an id token. */
export const idTokenEmail = (idToken: string | null): string | null => validEmail(idTokenClaims(idToken)?.email);

/** An address to show, or null (also for what a damaged kept record holds). */
function validEmail(value: unknown): string | null {
  const email = toText(value);
  return email !== null && /^[^\s@]{1,64}@[^\s@]{1,255}$/.test(email) ? email : null;
}
