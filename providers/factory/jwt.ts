import { isObject, toNumber, toText, tryJson } from "../kit/index.js";

/** Longer than any access token WorkOS issues: a longer payload is not decoded. */
const MAX_PAYLOAD_CHARS = 16_384;

export interface AccessTokenClaims {
  /** The organisation the token was issued for (WorkOS `org_id`). */
  orgId: string | null;
  /** The user (`sub`): the usage request's `userId` when `/auth/me` names none. */
  userId: string | null;
  /** When it stops being accepted (epoch seconds `exp`), as epoch ms. */
  expiresAtMs: number | null;
}

/** The claims of a JWT-shaped token, read without checking its signature (the server does that); all null for anything else. */
export function accessTokenClaims(token: string | null): AccessTokenClaims {
  const none: AccessTokenClaims = { orgId: null, userId: null, expiresAtMs: null };
  const payload = token?.split(".")[1];
  if (!payload || payload.length > MAX_PAYLOAD_CHARS || !/^[A-Za-z0-9_-]+$/.test(payload)) return none;
  const claims = tryJson(Buffer.from(payload, "base64url").toString("utf8"));
  if (!isObject(claims)) return none;
  const exp = toNumber(claims.exp);
  return { orgId: toText(claims.org_id), userId: toText(claims.sub), expiresAtMs: exp === null ? null : exp * 1000 };
}

/** Whether a token's `exp` has passed (a token without one is taken as live). */
export function hasExpired(token: string, now: Date): boolean {
  const { expiresAtMs } = accessTokenClaims(token);
  return expiresAtMs !== null && expiresAtMs <= now.getTime();
}
