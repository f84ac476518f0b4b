import { keptId } from "../kit/kept-id.js";
import { accessTokenClaims } from "./jwt.js";

/**
 * The usage call's `userId`, known before `/auth/me` answers so that both go out together: the id
 * `/auth/me` named in an earlier run with this credential (kept: a cookie-only session has no JWT to
 * read it from), else the bearer's JWT `sub`. A WorkOS id is `user_` and 26 characters.
 */
const KEPT_USER_ID = keptId("userId", /^[A-Za-z0-9_-]{1,128}$/);

/** The kept user id, when the value read back is one. */
export const keptUserId = KEPT_USER_ID.read;
export const keepUserId = KEPT_USER_ID.keep;

/** What the usage call can carry before `/auth/me` answers: the kept id (what `/auth/me` said), else the JWT's `sub`. */
export const userIdBeforehand = (kept: string | null, bearer: string | null) => kept ?? accessTokenClaims(bearer).userId;
