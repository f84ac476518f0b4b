import { z } from "zod";
import { QuotabarError } from "../../domain/errors.js";
import {
  KIMI_CODING_SCOPE,
  KIMI_ORIGIN,
  KIMI_USAGES_URL,
  kimiSnapshot,
  kimiTierByName,
  type KimiQuota,
  type KimiReading,
} from "../../domain/providers/kimi.js";
import { fromIso } from "../../domain/time.js";
import type { CredentialSource } from "../../ports/credential-source.js";
import type { FetchContext } from "../../ports/fetch-context.js";
import type { FetchStrategy } from "../../ports/fetch-strategy.js";
import type { HttpClient, HttpResponse } from "../../ports/http-client.js";
import { credentialChain } from "../credential-chain.js";
import { cleanSecret } from "./api-key-credential.js";
import { decodeJson, looseNumber } from "./decode.js";
import { kimiAuthTokenFromText, kimiJwtClaims } from "./kimi-token.js";

const SERVICE = "Kimi";
const BROWSER_USER_AGENT =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/143.0.0.0 Safari/537.36";
const SETUP_HINT =
  "Copy the kimi-auth cookie from www.kimi.com (signed in), then run `quotabar config set-key kimi --stdin` " +
  "(stored as providers[kimi].apiKey), export KIMI_AUTH_TOKEN, or paste a Cookie header into providers[kimi].cookieHeader.";

const Detail = z.object({
  limit: looseNumber.nullish(),
  used: looseNumber.nullish(),
  remaining: looseNumber.nullish(),
  resetTime: z.string().nullish(),
  resetAt: z.string().nullish(),
  reset_time: z.string().nullish(),
  reset_at: z.string().nullish(),
});
const Response = z.object({
  usages: z.array(
    z.object({
      scope: z.string(),
      detail: Detail,
      limits: z.array(z.object({ detail: Detail })).nullish(),
    }),
  ),
});

/** A credential source reading pasted text (a token or a cookie) from the config entry or the environment. */
const fromText = (read: (context: FetchContext) => unknown, literal: boolean): CredentialSource<string> => ({
  async resolve(context) {
    const text = cleanSecret(read(context));
    if (text === null) return null;
    return kimiAuthTokenFromText(text) ?? (literal ? text : null);
  },
});

/**
 * Where the kimi-auth token comes from, in order. The spec lists browser cookies first, then a
 * manual token, then the environment: a browser importer goes at the head of this list.
 */
export const KIMI_CREDENTIAL_SOURCES: readonly CredentialSource<string>[] = [
  fromText((c) => c.entry.apiKey, true),
  fromText((c) => (c.entry.cookieSource === "off" ? null : c.entry.cookieHeader), false),
  fromText((c) => c.env.KIMI_MANUAL_COOKIE, false),
  fromText((c) => c.env.KIMI_AUTH_TOKEN ?? c.env.kimi_auth_token, true),
];

export function kimiStrategy(
  http: HttpClient,
  sources: readonly CredentialSource<string>[] = KIMI_CREDENTIAL_SOURCES,
): FetchStrategy<string, KimiReading> {
  return {
    source: "web",
    credentials: credentialChain(sources),
    missingCredential: () =>
      new QuotabarError("not_configured", "Kimi auth token is missing. Please add your JWT token from the Kimi console.", {
        hint: SETUP_HINT,
      }),
    toSnapshot: kimiSnapshot,
    usage: {
      async fetch(token, context) {
        const response = await requestUsages(http, token, context);
        return kimiReading(decodeJson(response.body, Response, SERVICE), context);
      },
    },
  };
}

/** The browser's request, header for header (reference section 2.1). */
export function kimiHeaders(token: string): Record<string, string> {
  const claims = kimiJwtClaims(token);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Authorization: `Bearer ${token}`,
    Cookie: `kimi-auth=${token}`,
    Origin: KIMI_ORIGIN,
    Referer: `${KIMI_ORIGIN}/code/console`,
    Accept: "*/*",
    "Accept-Language": "en-US,en;q=0.9",
    "User-Agent": BROWSER_USER_AGENT,
    "connect-protocol-version": "1",
    "x-language": "en-US",
    "x-msh-platform": "web",
    "r-timezone": Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
  if (claims.deviceId) headers["x-msh-device-id"] = claims.deviceId;
  if (claims.sessionId) headers["x-msh-session-id"] = claims.sessionId;
  if (claims.subject) headers["x-traffic-id"] = claims.subject;
  return headers;
}

async function requestUsages(http: HttpClient, token: string, context: FetchContext): Promise<HttpResponse> {
  try {
    return await http.request({
      url: KIMI_USAGES_URL,
      method: "POST",
      headers: kimiHeaders(token),
      json: { scope: [KIMI_CODING_SCOPE] },
      service: SERVICE,
      secrets: [token],
      signal: context.signal,
      timeoutMs: context.timeoutMs,
    });
  } catch (thrown) {
    const error = thrown as QuotabarError;
    if (error.code === "unauthorized" || error.code === "forbidden") {
      throw new QuotabarError(error.code, "Kimi auth token is invalid or expired. Please refresh your token.", {
        status: error.status,
        hint: SETUP_HINT,
      });
    }
    if (error.status === 400) {
      throw new QuotabarError("upstream", "Kimi API error: HTTP 400 (invalid request)", {
        status: 400,
        hint: "Kimi may have changed its billing API; please report it.",
      });
    }
    throw error;
  }
}

function kimiReading(response: z.output<typeof Response>, context: FetchContext): KimiReading {
  const coding = response.usages.find((u) => u.scope === KIMI_CODING_SCOPE);
  if (!coding) {
    throw new QuotabarError("parse", `Failed to parse Kimi usage data: ${KIMI_CODING_SCOPE} scope not found in response`, {
      hint: "The account may have no Kimi For Coding membership.",
    });
  }
  const rate = coding.limits?.[0]?.detail;
  return {
    weekly: quota(coding.detail),
    rateLimit: rate ? quota(rate) : null,
    declaredTier: kimiTierByName(context.entry.tier),
  };
}

function quota(detail: z.output<typeof Detail>): KimiQuota {
  return {
    limit: detail.limit ?? null,
    used: detail.used ?? null,
    remaining: detail.remaining ?? null,
    resetsAt: fromIso(detail.resetTime ?? detail.resetAt ?? detail.reset_time ?? detail.reset_at),
  };
}
