import { advice, isObject, QuotabarError, toText, tryJson, type FetchContext, type Remedy } from "../kit/index.js";

/** WorkOS's token endpoint: Factory's sign-in (AuthKit) issues its access tokens here. */
export const WORKOS_AUTHENTICATE_URL = "https://api.workos.com/user_management/authenticate";
/** Factory's two WorkOS client ids, tried in this order until one answers with a token. */
export const WORKOS_CLIENT_IDS = ["client_01HXRMBQ9BJ3E7QSTQ9X2PHVB7", "client_01HNM792M5G5G1A2THWPXKFMXB"];

export interface MintedTokens {
  accessToken: string;
  /** The rotated refresh token, when WorkOS sent one. */
  refreshToken: string | null;
}

/** What to mint with: a refresh token (and the organisation it was issued for), or the browser's WorkOS cookies. */
export type MintGrant = { refreshToken: string; organizationId: string | null } | { workosCookies: string };

const SIGN_IN: Remedy[] = [{ kind: "browser-sign-in", url: "https://app.factory.ai" }];

/** WorkOS no longer knows this session: the refresh token was used or revoked, or the cookies carry none. */
export class WorkosRefusal extends QuotabarError {
  constructor(
    message: string,
    status: number | undefined,
    /** `invalid_grant`: the refresh token is dead and is best forgotten. */
    readonly deadRefreshToken: boolean,
  ) {
    super("expired", message, { ...(status === undefined ? {} : { status }), remedies: SIGN_IN });
  }
}

/** `error_description`, else `error`, else the start of the body: redacted first (an upstream may quote the refresh token), then cut. */
function summary(body: unknown, text: string, http: FetchContext["http"]): string {
  const said = isObject(body) ? (toText(body.error_description) ?? toText(body.error) ?? toText(body.message)) : null;
  return http.excerpt(said || text) || "empty body";
}

async function mintOnce(grant: MintGrant, clientId: string, { http }: FetchContext): Promise<MintedTokens> {
  const cookie = "workosCookies" in grant;
  const response = await http.request({
    url: WORKOS_AUTHENTICATE_URL,
    method: "POST",
    service: "WorkOS",
    // a token endpoint: a redirect (which would resend the refresh token or the cookies) is an error
    redirect: "refuse",
    statusRules: { "4xx": "pass", "5xx": "pass" },
    headers: { Accept: "application/json", "Content-Type": "application/json", ...(cookie ? { Cookie: grant.workosCookies } : {}) },
    json: cookie
      ? { client_id: clientId, grant_type: "refresh_token", useCookie: true }
      : {
          client_id: clientId,
          grant_type: "refresh_token",
          refresh_token: grant.refreshToken,
          ...(grant.organizationId ? { organization_id: grant.organizationId } : {}),
        },
  });
  const body = tryJson(response.body);
  if (response.status === 200) {
    const accessToken = isObject(body) ? toText(body.access_token) : null;
    if (!accessToken)
      throw new QuotabarError("parse", "Could not parse Factory usage: WorkOS answered without an access_token", {
        remedies: [advice("WorkOS may have changed its API; please report it.")],
      });
    return { accessToken, refreshToken: isObject(body) ? toText(body.refresh_token) : null };
  }
  const said = summary(body, response.body, http);
  if (/invalid_grant/i.test(response.body))
    throw new WorkosRefusal(`Factory session expired: WorkOS refused the refresh token (${said}).`, response.status, true);
  if (response.status === 400 && /missing refresh token/i.test(said))
    throw new WorkosRefusal("No Factory session found: WorkOS has no session to refresh.", response.status, false);
  throw new QuotabarError(
    response.status === 429 ? "rate_limited" : "upstream",
    `Factory API error: WorkOS HTTP ${response.status}: ${said}`,
    {
      status: response.status,
      remedies: [advice("WorkOS, Factory's sign-in service, is having trouble."), { kind: "retry" }],
    },
  );
}

/**
 * `POST /user_management/authenticate` with `grant_type=refresh_token`, each client id in turn until
 * one gives a token; the last refusal otherwise. Whether any answer said the refresh token is dead
 * travels on the error (`deadRefreshToken`).
 */
export async function mintAccessToken(grant: MintGrant, context: FetchContext): Promise<MintedTokens> {
  let failure: QuotabarError | null = null;
  let dead = false;
  for (const clientId of WORKOS_CLIENT_IDS) {
    try {
      return await mintOnce(grant, clientId, context);
    } catch (error) {
      if (!(error instanceof QuotabarError) || error.code === "timeout" || error.code === "network") throw error;
      if (error instanceof WorkosRefusal) dead ||= error.deadRefreshToken;
      failure = error;
    }
  }
  throw failure instanceof WorkosRefusal ? new WorkosRefusal(failure.message, failure.status, dead) : failure;
}
