import * as z from "../../domain/zod.js";
import {
  decodeValue,
  isObject,
  parseBoundedJson,
  QuotabarError,
  toNumber,
  toText,
  tryJson,
  valueAt,
  type FetchContext,
} from "../kit/index.js";
import { zCount } from "../kit/schema.js";
import { planOf, type ClaudeReading } from "./policy.js";
import { extraOf, usageOf } from "./usage-body.js";
import { emailIn } from "./wire.js";

export const WEB_ORIGIN = "https://claude.ai";
const SERVICE = "claude.ai";
/** The extras (spend limit, prepaid credits, the account) are best effort: each gets this long at most. */
const EXTRA_TIMEOUT_MS = 2_500;

const signedOut = () =>
  new QuotabarError("unauthorized", "claude.ai did not accept the session cookie", {
    remedies: [
      { kind: "browser-sign-in", url: "https://claude.ai" },
      { kind: "set-cookie", provider: "claude", env: ["CLAUDE_COOKIE"], from: "claude.ai" },
    ],
  });

const Organization = z.object({
  uuid: z.nullish(z.string()),
  id: z.nullish(z.union([z.string(), z.number()])),
  capabilities: z.nullish(z.array(z.unknown())),
});
const Organizations = z.array(Organization);

/**
 * claude.ai with the `sessionKey` cookie: the organizations, then the chosen one's usage (the
 * OAuth body's shape), its extra usage (the body's own, else the spend limit), prepaid credits and
 * the account (email, plan): the extras best effort, never failing the usage.
 */
export async function readClaudeWeb(cookie: string, context: FetchContext): Promise<ClaudeReading> {
  const get = (path: string, timeoutMs?: number) =>
    context.http.request({
      url: `${WEB_ORIGIN}${path}`,
      service: SERVICE,
      headers: { cookie, accept: "application/json" },
      statusRules: { 401: signedOut, 403: signedOut },
      ...(timeoutMs ? { timeoutMs } : {}),
    });
  const bestEffort = (path: string) =>
    get(path, EXTRA_TIMEOUT_MS).then(
      (response) => tryJson(response.body),
      () => null,
    );

  const organizations = decodeValue(parseBoundedJson((await get("/api/organizations")).body, SERVICE), Organizations, SERVICE);
  const org = chooseOrganization(organizations);
  if (org === null) throw new QuotabarError("not_configured", "No Claude organization found for this claude.ai account");
  const base = `/api/organizations/${encodeURIComponent(org)}`;
  const [usageResponse, prepaid, account] = await Promise.all([
    get(`${base}/usage`),
    bestEffort(`${base}/prepaid/credits`),
    bestEffort("/api/account"),
  ]);
  const usage = usageOf(usageResponse.body, SERVICE, true);
  if (!usage.extraUsage) {
    const spend = await bestEffort(`${base}/overage_spend_limit`);
    const extra = isObject(spend) ? extraOf(decodeValue(spend, SpendLimit, SERVICE), false) : null;
    if (extra?.enabled) usage.extraUsage = extra;
  }
  const membership = firstMembership(account);
  return {
    usage,
    plan: planOf(null, toText(valueAt(membership, "organization.rate_limit_tier"))),
    email: emailIn(account, ["email_address", "email"]),
    organization: toText(valueAt(membership, "organization.name")),
    prepaid: prepaidOf(prepaid),
  };
}

const SpendLimit = z.object({
  is_enabled: z.optional(z.boolean()),
  monthly_credit_limit: z.nullish(zCount),
  used_credits: z.nullish(zCount),
  currency: z.nullish(z.string()),
});

/** The organization with chat, else the first that is not API-only, else the first. */
function chooseOrganization(organizations: z.output<typeof Organizations>): string | null {
  const idOf = (org: z.output<typeof Organization>) =>
    toText(org.uuid) ?? (org.id === null || org.id === undefined ? null : String(org.id));
  const caps = (org: z.output<typeof Organization>) => (org.capabilities ?? []).filter((c): c is string => typeof c === "string");
  const chosen =
    organizations.find((org) => caps(org).includes("chat")) ??
    organizations.find((org) => !(caps(org).length === 1 && caps(org)[0] === "api")) ??
    organizations[0];
  return chosen ? idOf(chosen) : null;
}

function firstMembership(account: unknown): unknown {
  const memberships = valueAt(account, "memberships");
  return Array.isArray(memberships) ? memberships[0] : null;
}

/** Prepaid credits: `amount` in cents; a negative or currency-less balance is left out. */
function prepaidOf(body: unknown): ClaudeReading["prepaid"] {
  const cents = toNumber(valueAt(body, "amount"));
  const currency = toText(valueAt(body, "currency"))?.toUpperCase();
  return cents !== null && cents >= 0 && currency ? { amount: cents / 100, currency } : null;
}
