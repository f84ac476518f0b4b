import {
  advice,
  checked,
  checkedCount,
  cookieValue,
  isObject,
  jwtClaims,
  parseBoundedJson,
  parseError,
  percentProblem,
  sessionRefusal,
  toBool,
  toNumber,
  toText,
  toTime,
  type FetchContext,
  type JsonObject,
} from "../kit/index.js";
import { userIdOfSubject } from "./app-sign-in.js";
import { PASTE_COOKIE, SIGN_IN } from "./cookies.js";
import { keepUser, keptUser } from "./kept-user.js";
import type { CursorMoney, CursorPlanUsage, CursorReading } from "./policy.js";

const BASE = "https://cursor.com";
const SERVICE = "Cursor";
/** The user info and the request allowance are extras: they may take this long, and fail, without failing the usage. */
const EXTRA_TIMEOUT_MS = 5_000;
/** Longer than any plan id or e-mail address cursor.com sends: a longer one is left out. */
const MAX_TEXT_CHARS = 320;

/** 401 or 403 on the summary: the session is not (or no longer) signed in. */
const SIGNED_OUT = sessionRefusal("unauthorized", "Not signed in to Cursor: cursor.com refused the session.", [...SIGN_IN, PASTE_COOKIE]);

const changedApi = (detail: string) =>
  parseError(`Could not parse Cursor usage: ${detail}`, advice("Cursor may have changed its dashboard API; please report it."));

/**
 * `GET cursor.com/api/usage-summary` with the session cookie (and `/api/auth/me` beside it, for the
 * account), then, with a user id, `/api/usage?user=` for a request-based plan's allowance. With the
 * user `/api/auth/me` named in an earlier run kept, the allowance goes out beside the other two; it
 * is asked again only when `/api/auth/me` now names another user (its id wins, as when asked first).
 */
export async function readCursor(cookie: string, { http, kept }: FetchContext): Promise<CursorReading> {
  const headers = { Accept: "application/json", Cookie: cookie };
  const extra = (path: string) =>
    http
      .request({ url: `${BASE}${path}`, headers, timeoutMs: EXTRA_TIMEOUT_MS })
      .then((response) => objectOf(response.body))
      .catch(() => null);
  const usageOf = (user: string) => extra(`/api/usage?user=${encodeURIComponent(user)}`);
  const keptId = await keptUser(kept);
  const [summary, me, early] = await Promise.all([
    http.request({ url: `${BASE}/api/usage-summary`, headers, statusRules: SIGNED_OUT.statusRules }),
    extra("/api/auth/me"),
    keptId === null ? null : usageOf(keptId),
  ]);
  const body = parseBoundedJson(summary.body, SERVICE);
  if (!isObject(body)) throw changedApi("the answer is not an object.");
  const reading = readSummary(body);
  const named = short(toText(me?.sub));
  // without /api/auth/me's answer, the kept user (what it said before with this cookie) stands
  const user = named ?? keptId ?? cookieUserId(cookie);
  const usage = user === null ? null : keptId !== null && user === keptId ? early : await usageOf(user);
  if (named !== null && named !== keptId) await keepUser(kept, named);
  return { ...reading, requests: usage ? allowanceOrNone(usage) : null, email: short(toText(me?.email)) ?? cookieEmail(cookie) };
}

/** The usage summary's fields, every count checked (cents and percents are never negative). */
export function readSummary(body: JsonObject): Omit<CursorReading, "requests" | "email"> {
  const individual = isObject(body.individualUsage) ? body.individualUsage : {};
  const team = isObject(body.teamUsage) ? body.teamUsage : {};
  return {
    membershipType: short(toText(body.membershipType)),
    billingCycleStart: toTime(body.billingCycleStart),
    billingCycleEnd: toTime(body.billingCycleEnd),
    plan: planOf(individual.plan, "individualUsage.plan"),
    overall: moneyOf(individual.overall, "individualUsage.overall"),
    onDemand: moneyOf(individual.onDemand, "individualUsage.onDemand"),
    teamOnDemand: moneyOf(team.onDemand, "teamUsage.onDemand"),
    pooled: moneyOf(team.pooled, "teamUsage.pooled"),
  };
}

const count = (block: JsonObject, key: string, at: string) => checkedCount(toNumber(block[key]), `${at}.${key}`, SERVICE);
const percentAt = (block: JsonObject, key: string, at: string) => checked(toNumber(block[key]), percentProblem, `${at}.${key}`, SERVICE);

function moneyOf(value: unknown, at: string): CursorMoney | null {
  if (!isObject(value)) return null;
  return { enabled: toBool(value.enabled) ?? false, used: count(value, "used", at), limit: count(value, "limit", at) };
}

/** The plan block: cents, and percents already in percent units (0.36 is 0.36 %, never scaled). */
function planOf(value: unknown, at: string): CursorPlanUsage | null {
  if (!isObject(value)) return null;
  return {
    used: count(value, "used", at),
    limit: count(value, "limit", at),
    autoPercentUsed: percentAt(value, "autoPercentUsed", at),
    apiPercentUsed: percentAt(value, "apiPercentUsed", at),
    totalPercentUsed: percentAt(value, "totalPercentUsed", at),
  };
}

/** `{"gpt-4":{"numRequests":…,"numRequestsTotal":…,"maxRequestUsage":500}}`: an allowance above zero is a request-based plan. */
export function requestAllowance(body: JsonObject): { used: number; limit: number } | null {
  const quota = isObject(body["gpt-4"]) ? body["gpt-4"] : null;
  const limit = quota ? toNumber(quota.maxRequestUsage) : null;
  if (!quota || limit === null || limit <= 0) return null;
  const used = toNumber(quota.numRequestsTotal) ?? toNumber(quota.numRequests) ?? 0;
  return { used: checkedCount(used, "gpt-4.numRequestsTotal", SERVICE) ?? 0, limit };
}

/** The allowance is an extra too: an impossible one (a negative count) is left out, and the summary stands. */
function allowanceOrNone(body: JsonObject): { used: number; limit: number } | null {
  try {
    return requestAllowance(body);
  } catch {
    return null;
  }
}

function objectOf(body: string): JsonObject | null {
  try {
    const value = parseBoundedJson(body, SERVICE);
    return isObject(value) ? value : null;
  } catch {
    return null; // an extra that does not parse is left out
  }
}

const short = (text: string | null) => (text !== null && text.length <= MAX_TEXT_CHARS ? text : null);

/** The session cookie's two halves, `<userId>::<jwt>` (percent-encoded as sent). */
function sessionParts(cookie: string): { userId: string | null; token: string | null } {
  const value = cookieValue(cookie, "WorkosCursorSessionToken");
  if (!value) return { userId: null, token: null };
  let text: string;
  try {
    text = decodeURIComponent(value);
  } catch {
    text = value;
  }
  const parts = text.split("::");
  return { userId: parts.length > 1 ? (parts[0] ?? null) : null, token: parts.at(-1) ?? null };
}

/** The user id the session cookie names: its first half, else its token's subject. */
function cookieUserId(cookie: string): string | null {
  const { userId, token } = sessionParts(cookie);
  if (userId && /^[A-Za-z0-9._|-]+$/.test(userId)) return userId;
  return userIdOfSubject(token ? toText(jwtClaims(token)?.sub) : null);
}

function cookieEmail(cookie: string): string | null {
  const { token } = sessionParts(cookie);
  return short(token ? toText(jwtClaims(token)?.email) : null);
}
