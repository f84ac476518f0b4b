import {
  browserSession,
  cachedCookieHeader,
  isObject,
  manualCookieHeader,
  storeCookieHeader,
  tryJson,
  withSetCookies,
} from "../kit/index.js";
import type { KeptSession, PingOutcome, SessionKeeper } from "../../ports/session-keeper.js";
import { APP_ORIGIN, AUGMENT_COOKIES, COOKIE_ENV } from "./cookies.js";

/** Augment's session endpoints, tried in turn: the first that confirms the session renews it. */
export const SESSION_ENDPOINTS = ["/api/auth/session", "/api/session", "/api/user"];
/** Each may take the spec's 30 s, never more than what is left of the ping's budget. */
const PING_MS = 30_000;

const pasted = manualCookieHeader(COOKIE_ENV);

/**
 * Augment's session keepalive: the session is the pasted header, else the browsers' cookies read
 * afresh (their earliest expiry decides when to renew), else the cached header. A ping renews the
 * server's sliding session; what it sets is folded into the cached header, so quotabar's own copy
 * stays fresh even while the browser is closed.
 */
export const augmentKeepalive: SessionKeeper = {
  signInUrl: APP_ORIGIN,

  async session(context): Promise<KeptSession | null> {
    const header = await pasted.resolve(context);
    if (header) return { header, expiresAt: null, origin: "pasted" };
    const fromBrowser = await browserSession(AUGMENT_COOKIES, context);
    if (fromBrowser) return { header: fromBrowser.header, expiresAt: fromBrowser.expiresAt, origin: "browser" };
    const cached = await cachedCookieHeader(context);
    return cached ? { header: cached, expiresAt: null, origin: "cache" } : null;
  },

  async ping(session, context): Promise<PingOutcome> {
    let refused = false;
    for (const path of SESSION_ENDPOINTS) {
      const response = await context.http
        .request({
          url: `${APP_ORIGIN}${path}`,
          headers: { Cookie: session.header, Accept: "application/json", Origin: APP_ORIGIN, Referer: APP_ORIGIN },
          statusRules: { "4xx": "pass", "5xx": "pass" },
          timeoutMs: PING_MS,
        })
        .catch(() => null); // a network failure moves on to the next endpoint, as any other answer does
      if (response?.status === 401) refused = true;
      if (response?.status !== 200 || !confirmsSession(response.body)) continue;
      if (session.origin !== "pasted") {
        const renewed = withSetCookies(session.header, response.headers["set-cookie"], context.now());
        await storeCookieHeader(context, renewed, "keepalive");
      }
      return "renewed";
    }
    return refused ? "expired" : "no-data";
  },
};

/** A JSON object naming the user, an address or the session: the session is alive. */
function confirmsSession(body: string): boolean {
  const value = tryJson(body);
  return isObject(value) && ["user", "email", "session"].some((key) => Object.hasOwn(value, key) && value[key] !== null);
}
