import { QuotabarError } from "../../domain/errors.js";
import { minimaxSnapshot, type MiniMaxReading, type MiniMaxRegion } from "../../domain/providers/minimax.js";
import type { CredentialSource } from "../../ports/credential-source.js";
import type { FetchContext } from "../../ports/fetch-context.js";
import type { AnyFetchStrategy, FetchStrategy } from "../../ports/fetch-strategy.js";
import type { HttpClient, HttpResponse } from "../../ports/http-client.js";
import { cookiePairs } from "../browser/cookie-header.js";
import { cleanSecret } from "./api-key-credential.js";
import { minimaxManualCookie, type MiniMaxWebSession } from "./minimax-cookie.js";
import { codingPlanFromPage, looksSignedOut } from "./minimax-page.js";
import {
  COOKIE_HINT,
  MINIMAX_INVALID,
  MINIMAX_KEY_HINT,
  MINIMAX_SERVICE,
  minimaxRemainsReading,
  type RemainsCaller,
} from "./minimax-remains.js";
import {
  minimaxApiRegion,
  minimaxApiRemainsUrls,
  minimaxCodingPlanUrl,
  minimaxEndpointPinned,
  minimaxReferer,
  minimaxWebRemainsUrl,
} from "./minimax-urls.js";

const BROWSER_USER_AGENT =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/143.0.0.0 Safari/537.36";
/** Standard keys (sk-api-...) cannot read the coding plan; the real client sends them to the web route. */
const STANDARD_KEY_PREFIX = "sk-api-";

const isAuthError = (error: QuotabarError) => error.code === "unauthorized" || error.code === "forbidden";

/** Config `apiKey` first, then MINIMAX_API_KEY (contract section 4). */
const configuredKey = (context: FetchContext) => cleanSecret(context.entry.apiKey) ?? cleanSecret(context.env.MINIMAX_API_KEY);
const isStandardKey = (key: string | null) => key?.startsWith(STANDARD_KEY_PREFIX) ?? false;

/** The API token; in auto mode a standard key is left aside so the web route can answer. */
const apiToken: CredentialSource<string> = {
  async resolve(context) {
    const key = configuredKey(context);
    return isStandardKey(key) && context.sourceMode === "auto" ? null : key;
  },
};

/** Spec 5, provider P: the API token first, then a web session (for now the manual cookie header). */
export function minimaxStrategies(http: HttpClient, webSessions = minimaxManualCookie()): AnyFetchStrategy[] {
  return [minimaxApiStrategy(http), minimaxWebStrategy(http, webSessions)];
}

export function minimaxApiStrategy(http: HttpClient): FetchStrategy<string, MiniMaxReading> {
  return {
    source: "api",
    credentials: apiToken,
    toSnapshot: minimaxSnapshot,
    // A refused token, or no remains endpoint on either path, still leaves the web session to try.
    fallbackOn: (error) => isAuthError(error) || error.status === 404,
    missingCredential: (context) => {
      return new QuotabarError(
        "not_configured",
        isStandardKey(configuredKey(context))
          ? "MiniMax standard API keys (sk-api-...) cannot read the coding plan, and no cookie header is configured."
          : `MiniMax API token not found. Set apiKey in ${context.configPath} or MINIMAX_API_KEY.`,
        { hint: `${MINIMAX_KEY_HINT} Or paste a cookie header into providers[minimax].cookieHeader or MINIMAX_COOKIE.` },
      );
    },
    usage: {
      async fetch(token, context) {
        const region = minimaxApiRegion(context);
        try {
          return await remainsWithToken(http, token, context, region);
        } catch (thrown) {
          const error = thrown as QuotabarError;
          // A Global token refused on the Global host may belong to the China platform: try there once.
          if (region !== "global" || !isAuthError(error) || minimaxEndpointPinned(context)) throw error;
          return await remainsWithToken(http, token, context, "cn").catch(() => {
            throw error;
          });
        }
      },
    },
  };
}

/** The real path first, then the spec's path when the real one answers 404 (decisions.md). */
async function remainsWithToken(http: HttpClient, token: string, context: FetchContext, region: MiniMaxRegion): Promise<MiniMaxReading> {
  let lastStatus = 0;
  for (const url of minimaxApiRemainsUrls(context, region)) {
    const response = await get(http, context, url, [token], {
      Authorization: `Bearer ${token}`,
      accept: "application/json",
      "Content-Type": "application/json",
      "MM-API-Source": "quotabar",
    });
    lastStatus = response.status;
    if (response.status === 404) continue;
    checkHttpStatus(response, MINIMAX_KEY_HINT);
    return minimaxRemainsReading(json(response), "api");
  }
  throw new QuotabarError("upstream", `MiniMax API error: HTTP ${lastStatus}`, {
    status: lastStatus,
    hint: "Neither remains endpoint exists on this host; check MINIMAX_REMAINS_URL, MINIMAX_HOST or the region.",
  });
}

/**
 * The web route (reference 4.4) with one session: the coding-plan page first, which may carry the
 * data itself, then the remains API with the session's cookie (and Bearer token, when pasted).
 */
export function minimaxWebStrategy(
  http: HttpClient,
  sessions: CredentialSource<MiniMaxWebSession>,
): FetchStrategy<MiniMaxWebSession, MiniMaxReading> {
  return {
    source: "web",
    credentials: sessions,
    toSnapshot: minimaxSnapshot,
    missingCredential: () =>
      new QuotabarError("not_configured", "MiniMax cookie header not found.", {
        hint: `Paste a Cookie header (or a "Copy as cURL" command) from platform.minimax.io into providers[minimax].cookieHeader, or set MINIMAX_COOKIE. ${MINIMAX_KEY_HINT}`,
      }),
    usage: {
      async fetch(session, context) {
        const caller: RemainsCaller = session.bearer ? "web-bearer" : "web-cookie";
        const secrets = [session.cookieHeader, ...cookiePairs(session.cookieHeader).map((p) => p.value), session.bearer ?? ""];
        const headers: Record<string, string> = {
          Cookie: session.cookieHeader,
          "user-agent": BROWSER_USER_AGENT,
          "accept-language": "en-US,en;q=0.9",
          referer: minimaxReferer(context),
          ...(session.bearer ? { Authorization: `Bearer ${session.bearer}` } : {}),
        };
        const pageUrl = minimaxCodingPlanUrl(context);
        const page = await get(http, context, pageUrl, secrets, {
          ...headers,
          accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
          origin: new URL(pageUrl).origin,
        });
        checkHttpStatus(page, COOKIE_HINT);
        const fromPage = readBody(page, context, caller);
        if (fromPage) return fromPage;

        const remainsUrl = minimaxWebRemainsUrl(context, session.groupId);
        const remains = await get(http, context, remainsUrl, secrets, {
          ...headers,
          accept: "application/json, text/plain, */*",
          "x-requested-with": "XMLHttpRequest",
          origin: new URL(remainsUrl).origin,
        });
        checkHttpStatus(remains, COOKIE_HINT);
        const reading = readBody(remains, context, caller);
        if (reading) return reading;
        throw new QuotabarError("parse", "Failed to parse MiniMax coding plan: neither the page nor the remains API carried usage.", {
          hint: "MiniMax may have changed its pages; please report it.",
        });
      },
    },
  };
}

/** JSON is remains data; HTML is a page to scrape, or a sign-in page (refused credentials). */
function readBody(response: HttpResponse, context: FetchContext, caller: RemainsCaller): MiniMaxReading | null {
  const type = String(response.headers["content-type"] ?? "");
  if (type.includes("application/json")) return minimaxRemainsReading(json(response), caller);
  if (looksSignedOut(response.body)) throw new QuotabarError("unauthorized", MINIMAX_INVALID, { hint: COOKIE_HINT });
  return codingPlanFromPage(response.body, context.now(), caller);
}

function get(http: HttpClient, context: FetchContext, url: string, secrets: string[], headers: Record<string, string>) {
  return http.request({
    url,
    headers,
    service: MINIMAX_SERVICE,
    secrets,
    signal: context.signal,
    timeoutMs: context.timeoutMs,
    acceptStatuses: "any",
  });
}

function checkHttpStatus(response: HttpResponse, hint: string): void {
  const { status } = response;
  if (status === 200) return;
  if (status === 401 || status === 403) {
    throw new QuotabarError(status === 401 ? "unauthorized" : "forbidden", MINIMAX_INVALID, { status, hint });
  }
  if (status === 429) throw new QuotabarError("rate_limited", `MiniMax API error: HTTP ${status}`, { status, hint: "Retry in a minute." });
  throw new QuotabarError("upstream", `MiniMax API error: HTTP ${status}`, {
    status,
    ...(status >= 500 ? { hint: "MiniMax is having trouble; retry later." } : {}),
  });
}

function json(response: HttpResponse): unknown {
  try {
    return JSON.parse(response.body);
  } catch {
    throw new QuotabarError("parse", "Failed to parse MiniMax coding plan: the body is not JSON", {
      hint: "A proxy may have answered instead of MiniMax.",
    });
  }
}
