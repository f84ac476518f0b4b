import { keptId } from "../kit/kept-id.js";

/**
 * The user `/api/auth/me` named in an earlier run with this cookie, kept so that the next run asks
 * `/api/usage?user=` beside the summary and `/api/auth/me` instead of after them (one round trip).
 * `auth0|user_…` or `user_…`: what is read back from disk is sent only when it looks like one.
 */
const KEPT_USER = keptId("user", /^[A-Za-z0-9._|-]{1,320}$/);

export const keptUser = KEPT_USER.read;
/** Keeps what `/api/auth/me` named (a new user, or the first). */
export const keepUser = KEPT_USER.keep;
