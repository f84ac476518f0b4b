import {
  browserLookupAdvice,
  missingSessionCookie,
  QuotabarError,
  sessionRefusal,
  signedInPage,
  type FetchStrategy,
  type Remedy,
} from "../kit/index.js";
import { ampCookie, COOKIE_ENV } from "./cookies.js";
import { ampSnapshot, type AmpFreeTier } from "./policy.js";

const SETTINGS_URL = "https://ampcode.com/settings";
const SIGN_IN_AGAIN: Remedy[] = [
  { kind: "browser-sign-in", url: SETTINGS_URL },
  { kind: "set-cookie", provider: "amp", env: COOKIE_ENV, from: "ampcode.com/settings" },
];
const EXPIRED = sessionRefusal("expired", "Amp session cookie expired. Please log in again.", SIGN_IN_AGAIN);

/** A sign-in route: a `login` / `signin` / `sign-in` segment, or an `auth` segment that names where to return. */
function isLoginUrl({ pathname, search }: URL): boolean {
  const segments = pathname.toLowerCase().split("/");
  if (segments.some((segment) => ["login", "signin", "sign-in"].includes(segment))) return true;
  const query = search.toLowerCase();
  return segments.includes("auth") && ["returnto=", "redirect=", "redirectto="].some((key) => query.includes(key));
}

/** The Amp Free figures of ampcode.com/settings, read with the `session` cookie. */
export const ampWeb: FetchStrategy<string, AmpFreeTier> = {
  source: "web",
  credentials: ampCookie,
  missingCredential: (context) =>
    missingSessionCookie(
      context,
      COOKIE_ENV,
      { none: "No Amp session cookie found.", withoutSession: "No Amp session cookie found: the cookie header has no session cookie." },
      ...browserLookupAdvice(context),
      ...SIGN_IN_AGAIN,
    ),
  toSnapshot: ampSnapshot,
  async fetch(cookie, { http }) {
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
  },
};
