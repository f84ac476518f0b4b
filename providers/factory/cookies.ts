import { cookiePairs, type SessionCookieRule } from "../kit/index.js";

/** What a request presents: a Cookie header, a bearer token, or both. */
export interface Presented {
  cookie: string | null;
  bearer: string | null;
}

/** Factory's own hosts: its cookies are those sent to one of them. */
export const FACTORY_HOSTS = ["factory.ai", "app.factory.ai", "auth.factory.ai"];
/** WorkOS's hosts: the cookies that mint a token without a refresh token. */
export const WORKOS_HOSTS = ["workos.com", "api.workos.com"];

const PLAIN_SESSION_NAMES = new Set(["_session", "session", "access-token", "web_rpc_proxy_session", "wos-session"]);
/** The authentication libraries' forms: `<lib>.session-token` (also chunked `.0`, `.1`), `__Secure-<lib>.session-token`, `__Host-<lib>.csrf-token`, `<lib>.is.authenticated`. */
const LIBRARY_FORMS = [
  /^(__Secure-)?[A-Za-z0-9_-]+\.session-token(\.\d+)?$/,
  /^__Host-[A-Za-z0-9_-]+\.csrf-token$/,
  /^[A-Za-z0-9_-]+\.is\.authenticated$/,
];

/** A store counts when it holds a session cookie of spec section 5; every cookie of it is sent. */
export const FACTORY_SESSION: SessionCookieRule = {
  isSession: (name) => PLAIN_SESSION_NAMES.has(name) || LIBRARY_FORMS.some((form) => form.test(name)),
  sendOnlySession: false,
};

const AUTH_SESSION_NAMES = [
  "__Secure-next-auth.session-token",
  "next-auth.session-token",
  "__Secure-authjs.session-token",
  "authjs.session-token",
];

/**
 * The bearer a cookie set implies: a JWT-like `access-token`, else a JWT-like auth-session cookie,
 * else a JWT-like `session`, else an opaque `access-token` or auth-session value; else none.
 */
export function bearerFromCookies(pairs: readonly { name: string; value: string }[]): string | null {
  const value = (name: string) => pairs.find((p) => p.name === name && p.value !== "")?.value ?? null;
  const access = value("access-token");
  const authSession = AUTH_SESSION_NAMES.map(value).find((v) => v !== null) ?? null;
  const session = value("session");
  const jwtLike = [access, authSession, session].find((v) => v?.includes("."));
  return jwtLike ?? access ?? authSession;
}

/** A cookie header as a request presents it: with the bearer it implies. */
export const presentCookies = (header: string): Presented => ({ cookie: header, bearer: bearerFromCookies(cookiePairs(header)) });
export const namesOf = (header: string) => cookiePairs(header).map((p) => p.name);

/**
 * The cookie headers to try after the first is refused with a stale token (HTTP 409): without
 * the access token, without the session, without both, then the auth-session cookies alone.
 */
export function staleTokenFallbacks(header: string): string[] {
  const pairs = cookiePairs(header);
  const without = (names: string[]) => pairs.filter((p) => !names.includes(p.name));
  const accessNames = ["access-token", "__recent_auth"];
  const sessionNames = ["session", "wos-session"];
  const authOnly = pairs.filter((p) => AUTH_SESSION_NAMES.includes(p.name) || p.name === "__Host-authjs.csrf-token");
  const variants = [without(accessNames), without(sessionNames), without([...accessNames, ...sessionNames]), authOnly]
    .filter((v) => v.length > 0 && v.length < pairs.length)
    .map((v) => v.map((p) => `${p.name}=${p.value}`).join("; "));
  return [...new Set(variants)];
}
