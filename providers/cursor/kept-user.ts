import type { FetchContext } from "../kit/index.js";

/**
 * The user `/api/auth/me` named in an earlier run with this cookie, kept so that the next run asks
 * `/api/usage?user=` beside the summary and `/api/auth/me` instead of after them (one round trip).
 * An id, not a secret: kept in the cache file.
 */
const KEPT_USER = "user";
/** A session's user never changes; the lifetime bounds how long a stale record lingers (then one run asks in turn again). */
const USER_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** `auth0|user_…` or `user_…`: what is read back from disk is sent only when it looks like one. */
const USER = /^[A-Za-z0-9._|-]{1,320}$/;

type Kept = FetchContext["kept"];

export async function keptUser(kept: Kept): Promise<string | null> {
  const value = await kept.read(KEPT_USER);
  return typeof value === "string" && USER.test(value) ? value : null;
}

/** Keeps what `/api/auth/me` named (a new user, or the first): an unchanged one is not written again. */
export async function keepUser(kept: Kept, user: string): Promise<void> {
  if (USER.test(user)) await kept.write(KEPT_USER, user, USER_TTL_MS);
}
