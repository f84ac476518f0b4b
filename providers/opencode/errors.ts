import { advice, parseError, sessionRefusal, type Remedy } from "../kit/index.js";
import { COOKIE_ENV } from "./cookies.js";

export const SERVICE = "OpenCode";
export const ORIGIN = "https://opencode.ai";
export const PASTE_COOKIE: Remedy = { kind: "set-cookie", provider: "opencode", env: COOKIE_ENV, from: "opencode.ai" };
export const SIGN_IN_AGAIN: Remedy[] = [{ kind: "browser-sign-in", url: ORIGIN }, PASTE_COOKIE];

/** opencode.ai did not take the session: a 401/403, a sign-in page, or the "public actor" error. */
export const INVALID_SESSION = sessionRefusal("unauthorized", "OpenCode session cookie is invalid or expired.", SIGN_IN_AGAIN);

/** A body that did not carry what it should, in the words the Mac app uses ("Missing workspace id."). */
export const openCodeParseError = (detail: string) =>
  parseError(`OpenCode parse error: ${detail}`, advice("OpenCode may have changed its server functions; please report it."));
