import { isObject, parseBoundedJson, toText, tryJson, type FetchContext, type ProviderHttp } from "../kit/index.js";
import { zCount, zNumber } from "../kit/schema.js";
import * as z from "../../domain/zod.js";
import { APP_ORIGIN } from "./cookies.js";
import { apiError, creditsParse, sessionExpired } from "./errors.js";
import type { AugmentSubscription, AugmentWebReading } from "./policy.js";

const SERVICE = "Augment";
/** The plan is extra: it may take this long, and its failure is no failure. */
const SUBSCRIPTION_MS = 5_000;
/** A name or an address longer than this is no name or address. */
const MAX_TEXT_CHARS = 200;

const figure = <T extends z.ZodMiniType<number>>(number: T) =>
  z.pipe(
    z.nullish(number),
    z.transform((value) => value ?? null),
  );
// What remains goes below zero past the allowance (an overage: -1250 of 450,000); what was consumed
// and what is available never do, so a negative one is a parse error naming the field.
const Credits = z.object({
  usageUnitsRemaining: figure(zNumber),
  usageUnitsConsumedThisBillingCycle: figure(zCount),
  usageUnitsAvailable: figure(zCount),
});

const jsonHeaders = (cookie: string) => ({ Accept: "application/json", Cookie: cookie });

/** The credits (required) and the subscription (best effort), asked at once. */
export async function readAugmentWeb(cookie: string, { http }: FetchContext): Promise<AugmentWebReading> {
  const [credits, subscription] = await Promise.all([readCredits(http, cookie), readSubscription(http, cookie)]);
  return { credits, subscription };
}

async function readCredits(http: ProviderHttp, cookie: string): Promise<AugmentWebReading["credits"]> {
  const response = await http.request({
    url: `${APP_ORIGIN}/api/credits`,
    headers: jsonHeaders(cookie),
    statusRules: {
      401: (r) => sessionExpired(r.status),
      "4xx": (r) => apiError(r.status, http.excerpt(r.body, { firstLine: true })),
      "5xx": (r) => apiError(r.status, http.excerpt(r.body, { firstLine: true })),
    },
  });
  let body: unknown;
  try {
    body = parseBoundedJson(response.body, SERVICE);
  } catch (error) {
    throw creditsParse((error as Error).message.replace(/^Failed to parse Augment response: /, ""));
  }
  if (!isObject(body)) throw creditsParse("the body is not a JSON object");
  const decoded = Credits.safeParse(body);
  if (!decoded.success) {
    const issue = decoded.error.issues[0];
    throw creditsParse(`${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
  }
  const credits = decoded.data;
  const reading = {
    remaining: credits.usageUnitsRemaining,
    consumed: credits.usageUnitsConsumedThisBillingCycle,
    available: credits.usageUnitsAvailable,
  };
  if (reading.remaining === null && reading.consumed === null)
    throw creditsParse("no usageUnitsRemaining or usageUnitsConsumedThisBillingCycle");
  return reading;
}

/** The subscription, or null for any failure (status, network, body): it only adds the plan and the reset. */
async function readSubscription(http: ProviderHttp, cookie: string): Promise<AugmentSubscription | null> {
  try {
    const response = await http.request({
      url: `${APP_ORIGIN}/api/subscription`,
      headers: jsonHeaders(cookie),
      timeoutMs: SUBSCRIPTION_MS,
    });
    const body = tryJson(response.body);
    if (!isObject(body)) return null;
    return {
      planName: shortText(body.planName),
      billingPeriodEnd: shortText(body.billingPeriodEnd),
      email: shortText(body.email),
      organization: shortText(body.organization),
    };
  } catch {
    return null;
  }
}

function shortText(value: unknown): string | null {
  const text = toText(value);
  return text !== null && text.length <= MAX_TEXT_CHARS ? text : null;
}
