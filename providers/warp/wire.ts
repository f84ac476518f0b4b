import { advice, decodeValue, hostOs, isObject, QuotabarError, toText, tryJson, type FetchContext, type Remedy } from "../kit/index.js";
import { zCount, zFlag } from "../kit/schema.js";
import * as z from "../../domain/zod.js";
import { ENV } from "./credentials.js";
import type { WarpGrant, WarpReading } from "./policy.js";

const GRAPHQL_URL = "https://app.warp.dev/graphql/v2?op=GetRequestLimitInfo";
const SERVICE = "Warp";
const CHECK_KEY: Remedy[] = [
  advice("The token is invalid, or the network cannot reach app.warp.dev."),
  { kind: "set-key", provider: "warp", env: ENV },
];

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
function macosVersion(): string {
  const { platform, release } = hostOs();
  if (platform !== "darwin") return "15.3.0";
  const [major = 24, minor = 0] = release.split(".").map(Number);
  return `${major - 9}.${minor}.0`;
}

/** A count as a number or numeric text (fractions dropped); absent is 0, a negative one or anything else fails naming the field. */
const count = z.pipe(
  z.nullish(zCount),
  z.transform((v) => Math.trunc(v ?? 0)),
);
const Grant = z.object({ requestCreditsGranted: count, requestCreditsRemaining: count, expiration: z.nullish(z.string()) });
const Response = z.object({
  data: z.object({
    user: z.object({
      __typename: z.nullish(z.string()),
      user: z.nullish(
        z.object({
          requestLimitInfo: z.object({
            isUnlimited: zFlag,
            nextRefreshTime: z.nullish(z.string()),
            requestLimit: count,
            requestsUsedSinceLastRefresh: count,
          }),
          bonusGrants: z.nullish(z.array(Grant)),
          workspaces: z.nullish(z.array(z.object({ bonusGrantsInfo: z.nullish(z.object({ grants: z.nullish(z.array(Grant)) })) }))),
        }),
      ),
    }),
  }),
});

export async function readWarp(key: string, { http }: FetchContext): Promise<WarpReading> {
  const version = macosVersion();
  // GraphQL errors come in any status: the body is read first, the status second
  const response = await http
    .request({
      url: GRAPHQL_URL,
      method: "POST",
      statusRules: { "4xx": "pass", "5xx": "pass" },
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
      throw error.code === "network" || error.code === "timeout" ? error.withRemedies(...CHECK_KEY) : error;
    });
  const body = bodyOf(response.body, response.status);
  if (response.status !== 200) throw apiError(response.status, http.excerpt(summarize(body, response.body)));
  const errors = graphQlErrors(body);
  if (errors !== null) throw apiError(200, errors);
  const inner = decodeValue(body, Response, SERVICE).data.user;
  if (!inner.user) {
    throw new QuotabarError(
      "parse",
      inner.__typename && inner.__typename !== "UserOutput"
        ? `Failed to parse Warp response: Unexpected user type '${inner.__typename}'.`
        : "Failed to parse Warp response: Unable to extract requestLimitInfo from response.",
    );
  }
  const { requestLimitInfo: info, bonusGrants, workspaces } = inner.user;
  const toGrant = (g: z.output<typeof Grant>): WarpGrant => ({
    granted: g.requestCreditsGranted,
    remaining: g.requestCreditsRemaining,
    expiration: g.expiration ?? null,
  });
  return {
    isUnlimited: info.isUnlimited,
    requestLimit: info.requestLimit,
    requestsUsed: info.requestsUsedSinceLastRefresh,
    nextRefreshTime: info.nextRefreshTime ?? null,
    grants: [...(bonusGrants ?? []).map(toGrant), ...(workspaces ?? []).flatMap((w) => (w.bonusGrantsInfo?.grants ?? []).map(toGrant))],
    keyLooksUnusual: !key.startsWith("wk-"),
  };
}

/** The JSON body; an empty or non-JSON body is a parse error only when the status said OK. */
function bodyOf(text: string, status: number): unknown {
  if (text.trim() === "") {
    if (status === 200) throw new QuotabarError("parse", "Failed to parse Warp response: empty body");
    return null;
  }
  const body = tryJson(text);
  if (body === null && status === 200) throw new QuotabarError("parse", "Failed to parse Warp response: Root JSON is not an object.");
  return body;
}

/** Up to three GraphQL error messages, else `error`, else `message`, else the text itself (redacted, then cut, by the caller). */
function summarize(body: unknown, text: string): string {
  if (isObject(body))
    return graphQlErrors(body) ?? toText(body.error) ?? toText(body.message) ?? `HTTP body without details (${text.length} bytes).`;
  return text.trim() === "" ? `Unexpected response body (${text.length} bytes).` : text;
}

function graphQlErrors(body: unknown): string | null {
  const errors = isObject(body) ? body.errors : null;
  if (!Array.isArray(errors) || errors.length === 0) return null;
  const messages = errors
    .slice(0, 3)
    .map((e) => (isObject(e) ? toText(e.message) : null))
    .filter((m): m is string => m !== null);
  return messages.length > 0 ? messages.join(" | ") : "GraphQL request failed.";
}

function apiError(status: number, summary: string): QuotabarError {
  // a GraphQL error comes with a 200: the status says nothing then
  const message = status === 200 ? `Warp API error: ${summary}` : `Warp API error (${status}): ${summary}`;
  const authLike =
    status === 401 || status === 403 || /unauthori[sz]ed|unauthenticated|invalid (api )?(key|token)|forbidden/i.test(summary);
  if (authLike) {
    // the service answered: the network is fine, the key is not
    return new QuotabarError(status === 403 ? "forbidden" : "unauthorized", `Warp refused the API key (${summary})`, {
      status,
      remedies: [{ kind: "set-key", provider: "warp", env: ENV }],
    });
  }
  if (status === 429)
    return new QuotabarError("rate_limited", message, {
      status,
      remedies: [advice("Warp is rate limiting."), { kind: "retry", afterSeconds: 60 }],
    });
  return new QuotabarError("upstream", message, { status, remedies: CHECK_KEY });
}
