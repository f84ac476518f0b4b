import { QuotabarError, sessionRefusal, signedInPage, type FetchContext } from "../kit/index.js";
import { SETTINGS_URL, SIGN_IN_AGAIN } from "./cookies.js";
import type { AmpFreeTier } from "./policy.js";

const EXPIRED = sessionRefusal("expired", "Amp session cookie expired. Please log in again.", SIGN_IN_AGAIN);

/** A sign-in route: a `login` / `signin` / `sign-in` segment, or an `auth` segment that names where to return. */
function isLoginUrl({ pathname, search }: URL): boolean {
  const segments = pathname.toLowerCase().split("/");
  if (segments.some((segment) => ["login", "signin", "sign-in"].includes(segment))) return true;
  const query = search.toLowerCase();
  return segments.includes("auth") && ["returnto=", "redirect=", "redirectto="].some((key) => query.includes(key));
}

/** The settings page, read with the session cookie: the free tier's figures, or the error a sign-in page means. */
export async function readAmp(cookie: string, { http }: FetchContext): Promise<AmpFreeTier> {
  // ampcode.com sends an expired session to /auth/sign-in?returnTo=...
  // the page parser (htmlparser2) loads only when a page is to be read
  const [html, { readSettingsPage }] = await Promise.all([
    signedInPage(http, SETTINGS_URL, cookie, EXPIRED, isLoginUrl),
    import("./settings-page.js"),
  ]);
  const page = readSettingsPage(html);
  if (page.kind === "usage") return page.tier;
  throw new QuotabarError("unauthorized", "Not logged in to Amp: ampcode.com answered with its sign-in page.", {
    remedies: SIGN_IN_AGAIN,
  });
}
