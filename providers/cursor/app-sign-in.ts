import {
  appStateValues,
  configHome,
  cookieSourceOf,
  explainChosen,
  homeOf,
  hostOs,
  joinPath,
  jwtClaims,
  keepCookieHeader,
  QuotabarError,
  toNumber,
  toText,
  type CredentialContext,
  type CredentialSource,
} from "../kit/index.js";

const TOKEN_KEY = "cursorAuth/accessToken";
/** A token this close to its `exp` is not used: Cursor renews it, never quotabar. */
const MIN_LIFE_MS = 60_000;
const APP = "The Cursor app";

/** Where the Cursor app keeps its global state (VS Code's layout): macOS, Windows, else Linux's XDG config home. */
export function cursorStatePath(context: Pick<CredentialContext, "env">, platform: NodeJS.Platform = hostOs().platform): string {
  const { env } = context;
  const tail = ["Cursor", "User", "globalStorage", "state.vscdb"];
  if (platform === "darwin") return joinPath(homeOf(env), "Library", "Application Support", ...tail);
  if (platform === "win32") return joinPath(env.APPDATA ?? joinPath(homeOf(env), "AppData", "Roaming"), ...tail);
  return joinPath(configHome(env), ...tail);
}

/** The user id cursor.com keys a session by: the last `|` piece of the token's subject (`auth0|user_01…` → `user_01…`), when it is one. */
export function userIdOfSubject(subject: string | null): string | null {
  const last =
    subject
      ?.split("|")
      .filter((piece) => piece !== "")
      .at(-1) ?? null;
  return last !== null && /^[A-Za-z0-9._-]+$/.test(last) ? last : null;
}

/** The app's access token as the dashboard's session cookie: `WorkosCursorSessionToken=<userId>%3A%3A<jwt>`. */
export function sessionCookieOfToken(token: string, now: Date, path: string): string {
  const claims = jwtClaims(token);
  if (!claims) throw new QuotabarError("parse", `${APP}'s sign-in in ${path} is not a token quotabar can read.`);
  const expires = toNumber(claims.exp);
  if (expires !== null && expires * 1000 - now.getTime() <= MIN_LIFE_MS)
    throw new QuotabarError(
      "expired",
      `${APP}'s sign-in has expired: open the Cursor app to renew it, or sign in to cursor.com in a browser.`,
      {
        remedies: [{ kind: "browser-sign-in", url: "https://cursor.com/dashboard" }],
      },
    );
  const userId = userIdOfSubject(toText(claims.sub));
  if (!userId) throw new QuotabarError("parse", `${APP}'s sign-in in ${path} names no user quotabar can send.`);
  return `WorkosCursorSessionToken=${userId}%3A%3A${token}`;
}

/**
 * The Cursor app's own sign-in (`cursorAuth/accessToken` in its state.vscdb), read from a copy of
 * the database and never written or refreshed; used when no browser has a session. The cookie made
 * of it is cached like a browser's, so the database is not copied on every refresh.
 */
export const cursorAppCookie: CredentialSource<string> = {
  async resolve(context) {
    if (cookieSourceOf(context.entry) !== "auto") return null;
    const path = cursorStatePath(context);
    const values = await appStateValues(context, "Cursor", path, [TOKEN_KEY]);
    const token = values?.[TOKEN_KEY]?.trim();
    if (!token) {
      context.browsers.explain?.({ browser: "cursor-app", outcome: values ? "nothing" : "not-installed", detail: `no sign-in in ${path}` });
      return null;
    }
    const explain = context.browsers.explain?.bind(context.browsers);
    let header: string;
    try {
      header = sessionCookieOfToken(token, context.now(), path);
    } catch (error) {
      // `quotabar cookies cursor` says why the app's sign-in is not used; a run shows the error
      if (!explain) throw error;
      explain({ browser: "cursor-app", outcome: "error", detail: (error as Error).message });
      return null;
    }
    const found = { browser: "cursor-app", profile: "state.vscdb", header };
    if (explain) explainChosen(context, found, `the Cursor app's sign-in (${path}), read only`);
    else await keepCookieHeader(context, found);
    return header;
  },
};
