import {
  cachedCookieHeader,
  cleanSecret,
  cookieHeaderOf,
  cookieSourceOf,
  normalizeCookieHeader,
  sessionCookieHeader,
  type CredentialContext,
} from "../kit/index.js";
import type { Found, Step } from "./chain.js";
import { FACTORY_SESSION, namesOf, presentCookies, type Presented } from "./cookies.js";
import { accessTokenClaims, hasExpired } from "./jwt.js";
import { readSession, type FactorySession } from "./session-file.js";

/** Steps 0 to 4: what the user pasted, and what quotabar kept (the cached header, the session file); their reads are in wire.ts. */

/** Step 0, before the chain: the config's `cookieHeader` (a Cookie header, or an `Authorization: Bearer` token). */
export const pastedHeader: Step<Presented> = {
  number: 0,
  title: "Pasted cookie header",
  source: "web",
  async find(context) {
    const raw = cookieSourceOf(context.entry) === "off" ? null : cleanSecret(context.entry.cookieHeader);
    const bearer = raw ? /^(?:authorization:\s*)?bearer\s+(\S+)$/i.exec(raw)?.[1] : undefined;
    if (bearer) return { credential: { cookie: null, bearer }, detail: "a bearer token is pasted" };
    const header = normalizeCookieHeader(raw);
    return header
      ? { credential: presentCookies(header), detail: "a cookie header is pasted" }
      : { credential: null, outcome: "nothing", detail: "nothing pasted" };
  },
  // the wire (requests, schemas, WorkOS) loads with the first fetch: listing providers never loads it
  read: async (presented, context) => (await import("./wire.js")).readPasted(presented, context),
};

export const cachedHeader: Step<string> = {
  number: 1,
  title: "cached cookie header",
  source: "web",
  async find(context) {
    const header = await cachedCookieHeader(context);
    if (!header) return { credential: null, outcome: "nothing", detail: "no header is cached in the OS secret store" };
    // explaining looks at the browsers afresh, as the kit's cookie source does
    if (context.browsers.explain)
      return { credential: null, outcome: "skipped", detail: "a header is cached; set aside here", names: namesOf(header) };
    return { credential: header, detail: "cached in the OS secret store", names: namesOf(header) };
  },
  read: async (header, context) => (await import("./wire.js")).readCachedHeader(header, context),
};

/** The `find` of steps 2-4: what `pick` takes from the session file, or why there is none. */
function fromSession<Credential>(pick: (session: FactorySession, context: CredentialContext) => Found<Credential>) {
  return async (context: CredentialContext): Promise<Found<Credential>> => {
    const read = await readSession(context.env, context.now());
    if (read.state === "absent") return { credential: null, outcome: "nothing", detail: `there is no ${read.path}` };
    if (read.state === "unreadable") return { credential: null, outcome: "error", detail: `${read.path} cannot be read: ${read.reason}` };
    return pick(read.session, context);
  };
}

export const sessionCookies: Step<Presented> = {
  number: 2,
  title: "stored session cookies",
  source: "web",
  find: fromSession<Presented>((session) => {
    const header = cookieHeaderOf(session.cookies);
    if (!header) return { credential: null, outcome: "nothing", detail: "the session file holds no unexpired cookie" };
    if (!sessionCookieHeader(header, FACTORY_SESSION))
      return { credential: null, outcome: "skipped", detail: "none of the stored cookies is a session cookie", names: namesOf(header) };
    return { credential: presentCookies(header), detail: "the session file holds cookies", names: namesOf(header) };
  }),
  read: async (presented, context) => (await import("./wire.js")).readSessionCookies(presented, context),
};

export const sessionBearer: Step<string> = {
  number: 3,
  title: "stored bearer token",
  source: "oauth",
  find: fromSession<string>(({ bearerToken }, context) => {
    if (!bearerToken) return { credential: null, outcome: "nothing", detail: "the session file has no bearerToken" };
    if (hasExpired(bearerToken, context.now()))
      return { credential: null, outcome: "skipped", detail: "the stored bearer token has expired" };
    return { credential: bearerToken, detail: "the session file has a bearerToken", names: ["bearerToken"] };
  }),
  read: async (token, context) => (await import("./wire.js")).readSessionBearer(token, context),
};

export type RefreshGrant = { refreshToken: string; organizationId: string | null };

export const sessionRefreshToken: Step<RefreshGrant> = {
  number: 4,
  title: "stored refresh token, minted through WorkOS",
  source: "oauth",
  find: fromSession<RefreshGrant>(({ refreshToken, bearerToken }) => {
    if (!refreshToken) return { credential: null, outcome: "nothing", detail: "the session file has no refreshToken" };
    const organizationId = accessTokenClaims(bearerToken).orgId;
    return {
      credential: { refreshToken, organizationId },
      detail: "the session file has a refreshToken to exchange at WorkOS",
      names: ["refreshToken"],
    };
  }),
  read: async (grant, context) => (await import("./wire.js")).readSessionRefreshToken(grant, context),
};
