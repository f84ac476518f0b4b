import * as z from "../../domain/zod.js";
import {
  countProblem,
  decodeValue,
  isObject,
  MAX_READING,
  parseBoundedJson,
  QuotabarError,
  sessionRefusal,
  snakeKeys,
  statusError,
  toText,
  tryJson,
  type FetchContext,
  type HttpResponse,
} from "../kit/index.js";
import { zCount, zNumber, zTime } from "../kit/schema.js";
import { staleTokenFallbacks, type Presented } from "./cookies.js";
import { PASTE_COOKIE, SIGN_IN } from "./errors.js";
import type { FactoryPool, FactoryReading } from "./policy.js";
import { keepUserId, keptUserId, userIdBeforehand } from "./user-id.js";

/** The spec's base URL candidates, in its order: {auth_url}, {api_url}, {app_url}. */
export const FACTORY_BASE_URLS = ["https://auth.factory.ai", "https://api.factory.ai", "https://app.factory.ai"];
const SERVICE = "Factory";

/** 401 (and 403 on the usage call): the session the credential carries is over. */
export const SIGNED_OUT = sessionRefusal(
  "expired",
  "Not logged in to Factory: the session has expired or was signed out. Please log in to app.factory.ai again.",
  [SIGN_IN, PASTE_COOKIE],
);

/** `/api/app/auth/me` and the usage call, as one base answered them: the reading but for which step answered. */
export type FactoryAnswer = Omit<FactoryReading, "credential">;

/** Absent, or a value read as text (null when it is none). */
const text = z.optional(
  z.pipe(
    z.unknown(),
    z.transform((value) => toText(value)),
  ),
);
const time = z.optional(zTime);
const AuthMe = z.object({
  organization: z.nullish(
    z.object({
      name: text,
      subscription: z.nullish(
        z.object({
          factory_tier: text,
          orb_subscription: z.nullish(z.object({ plan: z.nullish(z.object({ name: text })) })),
        }),
      ),
    }),
  ),
  user_profile: z.nullish(z.object({ id: text })),
});

/** A token count: a number or numeric text (fractions kept); absent is 0; a negative one or anything else fails naming the field. */
const tokens = z.pipe(
  z.nullish(zCount),
  z.transform((value) => value ?? 0),
);
/**
 * The allowance: a token count, or Factory's "unlimited" sentinel (2^53 − 1 today), a magnitude no
 * quota has that the policy reads as no limit and never shows; negative, NaN or infinite fails.
 */
const allowance = z.pipe(
  z.nullish(zNumber.check(z.refine((value: number) => value >= MAX_READING || countProblem(value) === null, { error: allowanceProblem }))),
  z.transform((value) => value ?? 0),
);
function allowanceProblem(issue: { input: unknown }): string {
  return countProblem(issue.input as number) ?? "invalid";
}
/** Factory's own client tolerates rounding just below zero (a ratio to -0.001, a percent to -0.1); lower is no ratio. */
const LOWEST_RATIO = -0.1;
const ratio = z.pipe(
  z.nullish(
    zNumber.check(
      z.refine((value: number) => value >= LOWEST_RATIO, { error: (issue) => `must not be negative (got ${String(issue.input)})` }),
    ),
  ),
  z.transform((value) => value ?? null),
);
const Pool = z.pipe(
  z.nullish(z.object({ user_tokens: tokens, total_allowance: allowance, used_ratio: ratio })),
  z.transform((pool): FactoryPool | null =>
    pool ? { used: pool.user_tokens, allowance: pool.total_allowance, ratio: pool.used_ratio } : null,
  ),
);
const UsageBody = z.object({
  usage: z.object({ start_date: time, end_date: time, standard: Pool, premium: Pool }),
});

const HEADERS = {
  Accept: "application/json",
  "Content-Type": "application/json",
  Origin: "https://app.factory.ai",
  Referer: "https://app.factory.ai/",
  "x-factory-client": "web-app",
};

function headersOf({ cookie, bearer }: Presented): Record<string, string> {
  return { ...HEADERS, ...(cookie ? { Cookie: cookie } : {}), ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) };
}

/** The start of a body for a message, on one line: redacted first, then cut. */
function bodyPrefix(body: string, http: FetchContext["http"]): string {
  const json = tryJson(body);
  const said = isObject(json) ? (toText(json.message) ?? toText(json.error)) : null;
  return http.excerpt(said ?? body) || "empty body";
}

/** A status the call did not accept: 401 (and 403 where `forbiddenSignsOut`) signs out; 429 and 5xx as the table says; the rest an API error. */
function failed(response: HttpResponse, forbiddenSignsOut: boolean, http: FetchContext["http"]): QuotabarError {
  if (response.status === 401 || (response.status === 403 && forbiddenSignsOut)) return SIGNED_OUT.error(response.status);
  if (response.status === 429) return statusError(response, SERVICE) as QuotabarError;
  return new QuotabarError("upstream", `Factory API error: HTTP ${response.status}: ${bodyPrefix(response.body, http)}`, {
    status: response.status,
    remedies: response.status >= 500 ? [{ kind: "retry" }] : [SIGN_IN],
  });
}

const PASS = { "4xx": "pass", "5xx": "pass" } as const;

/** The usage call on one base: POST as the spec has it; GET with a query as the service has since taken it (404/405). */
async function askUsage(http: FetchContext["http"], base: string, headers: Record<string, string>, userId: string | null) {
  const url = `${base}/api/organization/subscription/usage`;
  const json = { useCache: true, ...(userId ? { userId } : {}) };
  const response = await http.request({ url, method: "POST", headers, json, statusRules: PASS });
  if (response.status !== 404 && response.status !== 405) return response;
  const query = new URLSearchParams({ useCache: "true", ...(userId ? { userId } : {}) });
  return http.request({ url: `${url}?${query}`, headers, statusRules: PASS });
}

/**
 * One base: `/api/app/auth/me` and the usage. The usage needs only the user id: when it is known
 * beforehand both go out together (one round trip); otherwise the usage waits for `/auth/me`'s id.
 * Errors are told in the same order either way: `/auth/me`'s first.
 */
async function askBase(
  base: string,
  presented: Presented,
  { http, kept }: FetchContext,
  knownUserId: string | null,
): Promise<FactoryAnswer> {
  const headers = headersOf(presented);
  const meRequest = http.request({ url: `${base}/api/app/auth/me`, headers, statusRules: PASS });
  const early = knownUserId ? askUsage(http, base, headers, knownUserId) : null;
  // observed at once: when /auth/me fails, the usage's outcome is dropped, never left unhandled
  early?.catch(() => undefined);
  const meResponse = await meRequest;
  // a 403 here is no sign-out: the account may lack the page but still have usage elsewhere
  if (meResponse.status !== 200) throw failed(meResponse, false, http);
  const me = decodeValue(snakeKeys(parseBoundedJson(meResponse.body, SERVICE)), AuthMe, SERVICE);
  const meId = me.user_profile?.id ?? null;
  if (meId) await keepUserId(kept, meId);
  // /auth/me's id wins, as when it was asked first: a usage asked for another user is asked again
  const earlyFits = early !== null && (meId === null || meId === knownUserId);
  const response = await (earlyFits ? early : askUsage(http, base, headers, meId ?? knownUserId));
  if (response.status !== 200) throw failed(response, true, http);
  const { usage } = decodeValue(snakeKeys(parseBoundedJson(response.body, SERVICE)), UsageBody, SERVICE);
  const subscription = me.organization?.subscription;
  return {
    organization: me.organization?.name ?? null,
    tier: subscription?.factory_tier ?? null,
    planName: subscription?.orb_subscription?.plan?.name ?? null,
    periodStart: usage.start_date ?? null,
    periodEnd: usage.end_date ?? null,
    standard: usage.standard,
    premium: usage.premium,
  };
}

export const isSignedOut = (error: QuotabarError) => error.code === "expired";
const isStale = (error: QuotabarError) => error.status === 409;

/**
 * Factory's usage with one credential: each base in the spec's order; on one base a refused or
 * stale (409) cookie set is tried again without the bearer and, after a 409, with the cookies that
 * may carry the stale token left out. The first answer wins; otherwise the last error. The user id
 * `/auth/me` named in an earlier run is kept, so the next run asks both at once without a JWT.
 */
export async function readFactoryUsage(presented: Presented, context: FetchContext): Promise<FactoryAnswer> {
  const keptId = await keptUserId(context.kept);
  let last: QuotabarError | null = null;
  for (const base of FACTORY_BASE_URLS) {
    const attempts: Presented[] = [presented];
    let staleSeen = false;
    for (let i = 0; i < attempts.length; i++) {
      try {
        const attempt = attempts[i] as Presented;
        return await askBase(base, attempt, context, userIdBeforehand(keptId, attempt.bearer));
      } catch (thrown) {
        if (!(thrown instanceof QuotabarError) || thrown.code === "timeout") throw thrown;
        last = thrown;
        if (!isSignedOut(thrown) && !isStale(thrown)) break;
        if (i === 0 && presented.cookie && presented.bearer) attempts.push({ cookie: presented.cookie, bearer: null });
        if (isStale(thrown) && !staleSeen && presented.cookie) {
          staleSeen = true;
          attempts.push(...staleTokenFallbacks(presented.cookie).map((cookie) => ({ cookie, bearer: null })));
        }
      }
    }
  }
  throw last as QuotabarError;
}
