import { cookiePairs, QuotabarError, type FetchContext } from "../kit/index.js";
import { isSignedOut, readFactoryUsage, type FactoryAnswer, type Presented } from "./api.js";
import { bearerFromCookies } from "./cookies.js";
import { updateSession } from "./session-file.js";
import { mintAccessToken, WorkosRefusal, type MintGrant } from "./workos.js";

/** How the steps of the chain read usage with what they found. */

export const presentCookies = (header: string): Presented => ({ cookie: header, bearer: bearerFromCookies(cookiePairs(header)) });
/**
 * What goes with a credential but is no secret (where it came from, the cookies' domains): behind a
 * function, since the usage service redacts every string of a credential from what it shows.
 */
export const aside =
  <T>(value: T) =>
  () =>
    value;
export const namesOf = (header: string) => cookiePairs(header).map((p) => p.name);
/** A read that failed, rethrown after `onSignedOut` when the session it carried is over. */
export async function signedOutThen<T>(read: Promise<T>, onSignedOut: () => Promise<unknown>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof QuotabarError && isSignedOut(error)) await onSignedOut();
    throw error;
  }
}

/**
 * A token minted through WorkOS, then usage with it. The new tokens go to the session file at once
 * (the old refresh token no longer works); a refresh token WorkOS calls dead goes through `onDead`.
 */
export async function mintAndRead(grant: MintGrant, context: FetchContext, onDead?: () => Promise<unknown>): Promise<FactoryAnswer> {
  let minted;
  try {
    minted = await mintAccessToken(grant, context);
  } catch (error) {
    if (error instanceof WorkosRefusal && error.deadRefreshToken) await onDead?.();
    throw error;
  }
  await updateSession(context.env, {
    bearerToken: minted.accessToken,
    ...(minted.refreshToken ? { refreshToken: minted.refreshToken } : {}),
  });
  return readFactoryUsage({ cookie: null, bearer: minted.accessToken }, context);
}

/** Each candidate in turn until one answers; the last failure otherwise (a spent budget at once). */
export async function firstAnswer<T>(items: readonly T[], read: (item: T) => Promise<{ answer: FactoryAnswer; from?: string }>) {
  let last: unknown = null;
  for (const item of items) {
    try {
      return await read(item);
    } catch (error) {
      if (error instanceof QuotabarError && error.code === "timeout") throw error;
      last = error;
    }
  }
  throw last;
}
