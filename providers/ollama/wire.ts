import { advice, parseError, sessionRefusal, signedInPage, type FetchContext } from "../kit/index.js";
import { PASTE_COOKIE, SETTINGS_URL } from "./cookies.js";
import type { OllamaReading } from "./policy.js";

/** The spec's "session cookie expired": a cookie was sent and ollama.com wants a sign-in. */
const EXPIRED = sessionRefusal("expired", "Ollama session cookie expired. Please log in again.", [
  { kind: "browser-sign-in", url: "https://ollama.com/signin" },
  PASTE_COOKIE,
]);

/** Where ollama.com sends a session it no longer knows: its sign-in page, or WorkOS's authorize step. */
function isSignInUrl({ pathname }: URL): boolean {
  return pathname.endsWith("/signin") || pathname.endsWith("/login") || pathname.includes("/user_management/authorize");
}

/** The settings page, read with the session cookie: its usage bars, or the error a sign-in page or a changed page means. */
export async function readOllama(cookie: string, { http }: FetchContext): Promise<OllamaReading> {
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
}
