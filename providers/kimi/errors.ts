import {
  advice,
  browserLookupAdvice,
  notConfigured,
  QuotabarError,
  type CredentialContext,
  type HttpResponse,
  type Remedy,
} from "../kit/index.js";

export const KIMI_ORIGIN = "https://www.kimi.com";
export const API_KEY_ENV = ["KIMI_CODE_API_KEY"];
export const WEB_TOKEN_ENV = ["KIMI_AUTH_TOKEN", "kimi_auth_token"];

const SET_API_KEY: Remedy = { kind: "set-key", provider: "kimi", env: API_KEY_ENV };
const SET_WEB_TOKEN: Remedy = { kind: "set-cookie", provider: "kimi", env: ["KIMI_AUTH_TOKEN"], from: KIMI_ORIGIN };
const CLI_SIGN_IN: Remedy = {
  kind: "install",
  tool: "the Kimi Code CLI",
  url: "https://www.kimi.com/help/kimi-code/cli-getting-started",
  command: "kimi",
};
const CLI_LOGIN_ADVICE = advice("Sign in with /login inside the Kimi Code CLI.");

const BROWSER_SIGN_IN: Remedy = { kind: "browser-sign-in", url: `${KIMI_ORIGIN}/code/console` };

/** Nothing found anywhere (auto): any of the three routes will do, the API key first; what the browsers showed is said. */
export const missingAny = (context: CredentialContext) =>
  notConfigured(
    "Kimi credentials are missing: no Kimi Code API key, no Kimi Code CLI sign-in and no kimi-auth token found.",
    ...browserLookupAdvice(context),
    SET_API_KEY,
    CLI_SIGN_IN,
    BROWSER_SIGN_IN,
    SET_WEB_TOKEN,
  );

export const missingApiKey = () => notConfigured("No Kimi Code API key found.", SET_API_KEY);

export const missingCliSession = (path: string) =>
  notConfigured(`No usable Kimi Code CLI credentials at ${path} (missing, unreadable or expired).`, CLI_SIGN_IN, CLI_LOGIN_ADVICE);

export const missingWebToken = (context: CredentialContext) =>
  notConfigured("No kimi-auth token found.", ...browserLookupAdvice(context), BROWSER_SIGN_IN, SET_WEB_TOKEN, SET_API_KEY);

/** The Code API refused the API key. */
export const rejectedApiKey = (response: HttpResponse) =>
  new QuotabarError("unauthorized", "Kimi Code API key is invalid or expired. Please refresh your API key.", {
    status: response.status,
    remedies: [SET_API_KEY],
  });

/** The Code API refused the CLI's access token (quotabar never refreshes it; the CLI does). */
export const rejectedCliToken = (response: HttpResponse) =>
  new QuotabarError("unauthorized", "Kimi Code CLI credentials are invalid or expired. Please sign in to the Kimi Code CLI again.", {
    status: response.status,
    remedies: [CLI_SIGN_IN, CLI_LOGIN_ADVICE],
  });

export const deniedByCodeApi = (response: HttpResponse) =>
  new QuotabarError("forbidden", "Kimi API error: HTTP 403 (permission or quota denied)", {
    status: response.status,
    remedies: [advice("The account may have no Kimi Code access, or its quota is used up.")],
  });

/** GetUsages refused the kimi-auth token (401 or 403 alike). */
export const rejectedWebToken = (response: HttpResponse) =>
  new QuotabarError(
    response.status === 403 ? "forbidden" : "unauthorized",
    "Kimi auth token is invalid or expired. Please refresh your token.",
    { status: response.status, remedies: [SET_WEB_TOKEN, SET_API_KEY] },
  );

export const invalidRequest = (response: HttpResponse) =>
  new QuotabarError("upstream", "Kimi API error: HTTP 400 (invalid request)", {
    status: response.status,
    remedies: [advice("Kimi may have changed its API; please report it.")],
  });
