import { release } from "node:os";
import { z } from "zod";
import { QuotabarError } from "../../domain/errors.js";
import { warpSnapshot, type WarpGrant, type WarpReading } from "../../domain/providers/warp.js";
import type { FetchStrategy } from "../../ports/fetch-strategy.js";
import type { HttpClient } from "../../ports/http-client.js";
import { apiKeyCredential } from "./api-key-credential.js";
import { decodeValue } from "./decode.js";

const URL = "https://app.warp.dev/graphql/v2?op=GetRequestLimitInfo";
const SERVICE = "Warp";
const HINT = "The token is invalid, or the network cannot reach app.warp.dev. Check WARP_API_KEY (or providers[warp].apiKey).";

/** The query text exactly as the Warp app sends it. */
export const WARP_QUERY = `query GetRequestLimitInfo($requestContext: RequestContext!) {
  user(requestContext: $requestContext) {
    __typename
    ... on UserOutput {
      user {
        requestLimitInfo {
          isUnlimited
          nextRefreshTime
          requestLimit
          requestsUsedSinceLastRefresh
        }
        bonusGrants {
          requestCreditsGranted
          requestCreditsRemaining
          expiration
        }
        workspaces {
          bonusGrantsInfo {
            grants {
              requestCreditsGranted
              requestCreditsRemaining
              expiration
            }
          }
        }
      }
    }
  }
}`;

/** Warp's edge answers 429 "Rate exceeded." unless the client looks like Warp; it reports macOS either way. */
function osVersion(): string {
  if (process.platform === "darwin") {
    const [major = 24, minor = 0] = release().split(".").map(Number);
    return `${major - 9}.${minor}.0`;
  }
  return "15.3.0";
}

const intLike = z.unknown().transform((v) => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : 0;
  return Number.isFinite(n) ? Math.trunc(n) : 0;
});
const boolLike = z.unknown().transform((v) => {
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") return ["true", "1", "yes"].includes(v.trim().toLowerCase());
  return false;
});
const Grant = z.object({ requestCreditsGranted: intLike, requestCreditsRemaining: intLike, expiration: z.string().nullish() });
const Response = z.object({
  data: z.object({
    user: z.object({
      __typename: z.string().nullish(),
      user: z
        .object({
          requestLimitInfo: z.object({
            isUnlimited: boolLike,
            nextRefreshTime: z.string().nullish(),
            requestLimit: intLike,
            requestsUsedSinceLastRefresh: intLike,
          }),
          bonusGrants: z.array(Grant).nullish(),
          workspaces: z.array(z.object({ bonusGrantsInfo: z.object({ grants: z.array(Grant).nullish() }).nullish() })).nullish(),
        })
        .nullish(),
    }),
  }),
});

export function warpStrategy(http: HttpClient): FetchStrategy<string, WarpReading> {
  return {
    source: "api",
    credentials: apiKeyCredential(["WARP_API_KEY", "WARP_TOKEN"]),
    missingCredential: () =>
      new QuotabarError("not_configured", "Missing Warp API key. Add a key in Preferences, Providers, or set WARP_API_KEY.", {
        hint: "Create one in Warp (Settings → Platform → API Keys), then run `quotabar config set-key warp --stdin` or export WARP_API_KEY.",
      }),
    toSnapshot: warpSnapshot,
    usage: {
      async fetch(key, context) {
        const version = osVersion();
        const response = await http
          .request({
            url: URL,
            method: "POST",
            service: SERVICE,
            secrets: [key],
            signal: context.signal,
            timeoutMs: context.timeoutMs,
            acceptStatuses: "any",
            headers: {
              "Content-Type": "application/json",
              Accept: "application/json",
              "x-warp-client-id": "warp-app",
              "x-warp-os-category": "macOS",
              "x-warp-os-name": "macOS",
              "x-warp-os-version": version,
              Authorization: `Bearer ${key}`,
              "User-Agent": "Warp/1.0",
            },
            json: {
              operationName: "GetRequestLimitInfo",
              variables: { requestContext: { clientContext: {}, osContext: { category: "macOS", name: "macOS", version } } },
              query: WARP_QUERY,
            },
          })
          .catch((error: QuotabarError) => {
            throw error.code === "network" || error.code === "timeout" ? error.withHint(HINT) : error;
          });
        const body = parseBody(response.body, response.status);
        if (response.status !== 200) throw apiError(response.status, summarize(body, response.body));
        const errors = graphQlErrors(body);
        if (errors !== null) throw apiError(200, errors);
        const decoded = decodeValue(body, Response, SERVICE);
        const inner = decoded.data.user.user;
        if (!inner) {
          const typename = decoded.data.user.__typename;
          throw new QuotabarError(
            "parse",
            typename && typename !== "UserOutput"
              ? `Failed to parse Warp response: Unexpected user type '${typename}'.`
              : "Failed to parse Warp response: Unable to extract requestLimitInfo from response.",
          );
        }
        const info = inner.requestLimitInfo;
        const toGrant = (g: z.output<typeof Grant>): WarpGrant => ({
          granted: g.requestCreditsGranted,
          remaining: g.requestCreditsRemaining,
          expiration: g.expiration ?? null,
        });
        const grants = [
          ...(inner.bonusGrants ?? []).map(toGrant),
          ...(inner.workspaces ?? []).flatMap((w) => (w.bonusGrantsInfo?.grants ?? []).map(toGrant)),
        ];
        return {
          isUnlimited: info.isUnlimited,
          requestLimit: info.requestLimit,
          requestsUsed: info.requestsUsedSinceLastRefresh,
          nextRefreshTime: info.nextRefreshTime ?? null,
          grants,
          keyLooksUnusual: !key.startsWith("wk-"),
        };
      },
    },
  };
}

function parseBody(text: string, status: number): unknown {
  if (text.trim() === "") {
    if (status === 200) throw new QuotabarError("parse", "Failed to parse Warp response: empty body");
    return null;
  }
  try {
    return JSON.parse(text);
  } catch {
    if (status === 200) throw new QuotabarError("parse", "Failed to parse Warp response: Root JSON is not an object.");
    return null;
  }
}

/** Up to three GraphQL error messages, else `error`, else `message`, else the text itself. */
function summarize(body: unknown, text: string): string {
  const fromJson =
    body && typeof body === "object" ? (graphQlErrors(body) ?? stringField(body, "error") ?? stringField(body, "message")) : null;
  if (fromJson) return fromJson;
  if (body && typeof body === "object") return `HTTP body without details (${text.length} bytes).`;
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat === "") return `Unexpected response body (${text.length} bytes).`;
  return flat.length > 200 ? `${flat.slice(0, 200)}...` : flat;
}

function graphQlErrors(body: unknown): string | null {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return null;
  const messages = errors
    .slice(0, 3)
    .map((e) => (e && typeof e === "object" ? stringField(e, "message") : null))
    .filter((m): m is string => m !== null);
  return messages.length > 0 ? messages.join(" | ") : "GraphQL request failed.";
}

function stringField(body: object, key: string): string | null {
  const value = (body as Record<string, unknown>)[key];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

function apiError(status: number, summary: string): QuotabarError {
  const message = `Warp API error (${status}): ${summary}`;
  const authLike =
    status === 401 || status === 403 || /unauthori[sz]ed|unauthenticated|invalid (api )?(key|token)|forbidden/i.test(summary);
  if (status === 429) return new QuotabarError("rate_limited", message, { status, hint: "Warp is rate limiting; retry in a minute." });
  if (authLike) return new QuotabarError(status === 403 ? "forbidden" : "unauthorized", message, { status, hint: HINT });
  return new QuotabarError("upstream", message, { status, hint: HINT });
}
