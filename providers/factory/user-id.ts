import type { FetchContext } from "../kit/index.js";
import { accessTokenClaims } from "./jwt.js";

/**
 * The usage call's `userId`, known before `/auth/me` answers so that both go out together: the id
 * `/auth/me` named in an earlier run with this credential (kept: a cookie-only session has no JWT to
 * read it from), else the bearer's JWT `sub`. An id, not a secret.
 */
const KEPT_USER_ID = "userId";
/** A session's user never changes; the lifetime only bounds how long a stale record lingers. */
const USER_ID_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A WorkOS id is `user_` and 26 characters: what is read back from disk is sent only when it looks like an id. */
const USER_ID = /^[A-Za-z0-9_-]{1,128}$/;

type Kept = FetchContext["kept"];

/** The kept user id, when the value read back is one. */
export async function keptUserId(kept: Kept): Promise<string | null> {
  const value = await kept.read(KEPT_USER_ID);
  return typeof value === "string" && USER_ID.test(value) ? value : null;
}

export async function keepUserId(kept: Kept, userId: string): Promise<void> {
  if (USER_ID.test(userId)) await kept.write(KEPT_USER_ID, userId, USER_ID_TTL_MS);
}

/** What the usage call can carry before `/auth/me` answers: the kept id (what `/auth/me` said), else the JWT's `sub`. */
export const userIdBeforehand = (keptId: string | null, bearer: string | null) => keptId ?? accessTokenClaims(bearer).userId;
