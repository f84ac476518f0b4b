import { forgetCookieHeader, QuotabarError, storeCookieHeader, type FetchContext } from "../kit/index.js";
import { isSignedOut, readFactoryUsage, type FactoryAnswer } from "./api.js";
import type { ProfileCookies, StoredTokens, WorkosProfile } from "./browser-steps.js";
import { presentCookies, type Presented } from "./cookies.js";
import { accessTokenClaims, hasExpired } from "./jwt.js";
import type { RefreshGrant } from "./session-steps.js";
import { updateSession } from "./session-file.js";
import { mintAccessToken, WorkosRefusal, type MintGrant } from "./workos.js";

/** How the steps of the chain read usage with what they found (their lookups are in session-steps.ts and browser-steps.ts). */

type Read = Promise<{ answer: FactoryAnswer; from?: string }>;

/** A read that failed, rethrown after `onSignedOut` when the session it carried is over. */
async function signedOutThen<T>(read: Promise<T>, onSignedOut: () => Promise<unknown>): Promise<T> {
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
async function mintAndRead(grant: MintGrant, context: FetchContext, onDead?: () => Promise<unknown>): Promise<FactoryAnswer> {
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
async function firstAnswer<T>(items: readonly T[], read: (item: T) => Read) {
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

/** Step 0: the pasted header or bearer token. */
export const readPasted = async (presented: Presented, context: FetchContext): Read => ({
  answer: await readFactoryUsage(presented, context),
});

/** Step 1: the cached header, forgotten when its session is over. */
export const readCachedHeader = async (header: string, context: FetchContext): Read => ({
  answer: await signedOutThen(readFactoryUsage(presentCookies(header), context), () => forgetCookieHeader(context)),
});

/** Step 2: the session file's cookies, removed from it when their session is over. */
export const readSessionCookies = async (presented: Presented, context: FetchContext): Read => ({
  answer: await signedOutThen(readFactoryUsage(presented, context), () => updateSession(context.env, { cookies: null })),
});

/** Step 3: the session file's bearer token, removed from it when its session is over (unless another run replaced it). */
export async function readSessionBearer(token: string, context: FetchContext): Read {
  const forget = () => updateSession(context.env, { bearerToken: null, unlessReplaced: { bearerToken: token } });
  return { answer: await signedOutThen(readFactoryUsage({ cookie: null, bearer: token }, context), forget) };
}

/** Step 4: the session file's refresh token, minted through WorkOS; removed from it when WorkOS calls it dead. */
export async function readSessionRefreshToken(grant: RefreshGrant, context: FetchContext): Read {
  const forget = () => updateSession(context.env, { refreshToken: null, unlessReplaced: { refreshToken: grant.refreshToken } });
  return { answer: await mintAndRead(grant, context, forget) };
}

/** Step 5: each profile's unexpired access token (kept in the session file when it works), else its refresh token minted. */
export const readLocalStorageTokens = (found: StoredTokens[], context: FetchContext) =>
  firstAnswer(found, async ({ from, accessToken, refreshToken }) => {
    let failure: unknown = null;
    if (accessToken && !hasExpired(accessToken, context.now())) {
      try {
        const answer = await readFactoryUsage({ cookie: null, bearer: accessToken }, context);
        await updateSession(context.env, { bearerToken: accessToken });
        return { answer, from: from() };
      } catch (error) {
        if (!refreshToken || (error instanceof QuotabarError && error.code === "timeout")) throw error;
        failure = error;
      }
    }
    if (!refreshToken) throw failure ?? new QuotabarError("expired", "The Local Storage access token has expired.");
    const organizationId = accessTokenClaims(accessToken).orgId;
    return { answer: await mintAndRead({ refreshToken, organizationId }, context), from: from() };
  });

/** Steps 6 and 8: the first profile whose Factory cookies give usage; they are kept in the session file and the cache. */
export const readBrowserCookies = (candidates: ProfileCookies[], context: FetchContext) =>
  firstAnswer(candidates, async ({ cookie, bearer, origin }) => {
    const answer = await readFactoryUsage({ cookie, bearer }, context);
    const { from, cookies } = origin();
    await updateSession(context.env, { cookies });
    await storeCookieHeader(context, cookie as string, from);
    return { answer, from };
  });

/** Steps 7 and 9: a profile's WorkOS cookies exchanged for a token (no refresh token in the body). */
export const readWorkosCookies = (candidates: WorkosProfile[], context: FetchContext) =>
  firstAnswer(candidates, async ({ workosCookies, from }) => ({ answer: await mintAndRead({ workosCookies }, context), from: from() }));
