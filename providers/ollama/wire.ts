import {
  advice,
  browserLookupAdvice,
  chooseBrowsers,
  missingSessionCookie,
  parseError,
  sessionRefusal,
  signedInPage,
  type FetchStrategy,
  type Remedy,
} from "../kit/index.js";
import { COOKIE_ENV, ollamaCookie } from "./cookies.js";
import { ollamaSnapshot, type OllamaReading } from "./policy.js";

const SETTINGS_URL = "https://ollama.com/settings";
const PASTE_COOKIE: Remedy = { kind: "set-cookie", provider: "ollama", env: COOKIE_ENV, from: "ollama.com/settings" };
/** The spec's "session cookie expired": a cookie was sent and ollama.com wants a sign-in. */
const EXPIRED = sessionRefusal("expired", "Ollama session cookie expired. Please log in again.", [
  { kind: "browser-sign-in", url: "https://ollama.com/signin" },
  PASTE_COOKIE,
]);

/** Where ollama.com sends a session it no longer knows: its sign-in page, or WorkOS's authorize step. */
function isSignInUrl({ pathname }: URL): boolean {
  return pathname.endsWith("/signin") || pathname.endsWith("/login") || pathname.includes("/user_management/authorize");
}

/** The Cloud Usage section of ollama.com/settings, read with the session cookie. */
export const ollamaWeb: FetchStrategy<string, OllamaReading> = {
  source: "web",
  credentials: ollamaCookie,
  // the spec's "no session cookie found", saying whether a header was pasted without one
  missingCredential: (context) =>
    missingSessionCookie(
      context,
      COOKIE_ENV,
      {
        none: "No Ollama session cookie found.",
        withoutSession:
          "No Ollama session cookie found: the cookie header has no session cookie (session, __Secure-session, next-auth.session-token, ...).",
      },
      ...browserLookupAdvice(context),
      { kind: "browser-sign-in", url: SETTINGS_URL },
      chooseBrowsers("ollama"),
      PASTE_COOKIE,
    ),
  toSnapshot: ollamaSnapshot,
  async fetch(cookie, { http }) {
    // the page parser (htmlparser2) loads only when a page is to be read
    const [html, { readSettingsPage }] = await Promise.all([
      signedInPage(http, SETTINGS_URL, cookie, EXPIRED, isSignInUrl),
      import("./settings-page.js"),
    ]);
    const page = readSettingsPage(html);
    if (page.kind === "usage") return page.reading;
    if (page.kind === "signed-out") throw EXPIRED.error();
    const found = page.labelsWithoutPercent;
    throw parseError(
      found.length > 0
        ? `Could not parse Ollama usage: the settings page shows ${found.join(" and ")} without a percentage.`
        : "Could not parse Ollama usage: the settings page has no Session usage, Hourly usage or Weekly usage bar.",
      advice("Ollama may have changed its settings page; please report it."),
    );
  },
};
