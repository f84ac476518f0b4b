import {
  advice,
  checked,
  checkedCount,
  fieldError,
  fromEnv,
  isObject,
  leftProblem,
  notConfigured,
  parseBoundedJson,
  QuotabarError,
  toNumber,
  toText,
  toTime,
  valueAt,
  type FetchContext,
  type HttpResponse,
} from "../kit/index.js";
import { idTokenClaims, type GoogleAccessToken } from "../kit/google-token.js";
import { SIGN_IN_COMMAND, signInAgain, type GeminiCredential } from "./credentials.js";
import type { GeminiReading, QuotaBucket } from "./policy.js";
import { keepProject, keptProject, PROJECT_ID } from "./project.js";
import { consumerRefused, isConsumerRefusal } from "./refusal.js";
import { geminiToken, remintedToken } from "./token.js";

/** Code Assist, as the Gemini CLI calls it (`${endpoint}/${version}:${method}`: a colon, not a slash). */
const CODE_ASSIST = "https://cloudcode-pa.googleapis.com/v1internal";
const SERVICE = "Gemini Code Assist API";
/** The quota project when loadCodeAssist names none (the CLI's order; an all-digit project number is refused, as it refuses it). */
const PROJECT_ENV = ["GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_PROJECT_ID"];
const MAX_BUCKETS = 500;
const setProject = advice("Set GOOGLE_CLOUD_PROJECT to the project id (not its number) your Gemini Code Assist licence belongs to.");
const MAX_MODEL_ID = 120;

/**
 * The plan and project (loadCodeAssist), then the quota buckets (retrieveUserQuota). With the
 * project kept from an earlier run, both are asked at once (one round trip); loadCodeAssist still
 * decides, and a project it names anew is asked for again and kept.
 */
export async function readGemini(credential: GeminiCredential, context: FetchContext): Promise<GeminiReading> {
  const signedIn = await geminiToken(credential, context);
  try {
    return await readWith(signedIn, credential, context);
  } catch (error) {
    // a kept token Google no longer takes (revoked, or the clock moved) costs one refresh, never the run
    if (!signedIn.kept || !(error instanceof QuotabarError) || error.status !== 401) throw error;
    const fresh = await remintedToken(credential, context);
    if (fresh === null) throw error;
    return readWith(fresh, credential, context);
  }
}

async function readWith(signedIn: GoogleAccessToken, credential: GeminiCredential, context: FetchContext): Promise<GeminiReading> {
  const envProject = fromEnv(context, PROJECT_ENV);
  const guess = envProject === null ? await keptProject(context.kept) : null;
  // a project number is never sent (the CLI refuses one too); it is said so below if it is all there is
  const [loaded, guessed] = await Promise.allSettled([
    call("loadCodeAssist", signedIn.token, loadRequest(envProject !== null && PROJECT_ID.test(envProject) ? envProject : null), context),
    guess === null ? null : call("retrieveUserQuota", signedIn.token, { project: guess }, context),
  ]);
  if (loaded.status === "rejected") throw loaded.reason;
  const load = loaded.value;
  const tier = valueAt(load, "currentTier");
  if (!isObject(tier)) {
    throw notConfigured(
      "Gemini CLI has not finished setting up this account.",
      advice(`Run \`${SIGN_IN_COMMAND}\` once to finish setting it up, then retry.`),
    );
  }
  const project = projectOf(load) ?? envProject;
  if (project === null) throw noProject(load, context);
  if (!PROJECT_ID.test(project)) {
    throw notConfigured(
      "The Google Cloud project for Gemini Code Assist is not a valid project id (a project number is not one).",
      setProject,
    );
  }
  let quota: unknown;
  if (project === guess) {
    if (guessed.status === "rejected") throw guessed.reason;
    quota = guessed.value;
  } else {
    quota = await call("retrieveUserQuota", signedIn.token, { project }, context);
    if (envProject === null) await keepProject(context.kept, project);
  }
  const claims = idTokenClaims(credential.idToken);
  return {
    tierId: toText(tier.id),
    tierName: toText(tier.name),
    paidTierName: toText(valueAt(load, "paidTier.name")),
    hostedDomain: toText(claims?.hd),
    email: signedIn.email,
    project,
    aiCredits: aiCreditsOf(valueAt(load, "paidTier.availableCredits")),
    buckets: bucketsOf(valueAt(quota, "buckets")),
  };
}

/** The CLI's own request (setup.ts: setupUser): the environment's project, when set, in both places. */
function loadRequest(project: string | null): unknown {
  return {
    ...(project === null ? {} : { cloudaicompanionProject: project }),
    metadata: {
      ideType: "IDE_UNSPECIFIED",
      platform: "PLATFORM_UNSPECIFIED",
      pluginType: "GEMINI",
      ...(project === null ? {} : { duetProject: project }),
    },
  };
}

/** One Code Assist method: its JSON answer, or the error its status and body say. */
async function call(method: string, token: string, body: unknown, context: FetchContext): Promise<unknown> {
  const response = await context.http.request({
    url: `${CODE_ASSIST}:${method}`,
    method: "POST",
    service: SERVICE,
    headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
    json: body,
    statusRules: { "4xx": "pass", "5xx": "pass" },
  });
  if (response.status !== 200) throw refusal(response, context);
  return parseBoundedJson(response.body, SERVICE);
}

/** `cloudaicompanionProject`: a string, or (after onboarding) an object with its `id`. */
function projectOf(load: unknown): string | null {
  const project = valueAt(load, "cloudaicompanionProject");
  return toText(project) ?? toText(valueAt(project, "id")) ?? toText(valueAt(project, "projectId"));
}

/** A Workspace or paid account without a managed project: the CLI asks for one the same way. */
function noProject(load: unknown, context: FetchContext): QuotabarError {
  const ineligible = valueAt(load, "ineligibleTiers");
  const reason = Array.isArray(ineligible) ? toText(valueAt(ineligible[0], "reasonMessage")) : null;
  return notConfigured(
    `This account needs a Google Cloud project for Gemini Code Assist${reason ? ` (${context.http.excerpt(reason, { maxChars: 120 })})` : ""}. Set GOOGLE_CLOUD_PROJECT to it, as for the Gemini CLI.`,
    setProject,
  );
}

/** What a refused call means: the June 2026 refusal by its words, a sign-in to make again, a rate limit, or Google's message. */
function refusal(response: HttpResponse, context: FetchContext): QuotabarError {
  const { status } = response;
  if (isConsumerRefusal(response.body.slice(0, 65_536))) return consumerRefused(status);
  let body: unknown = null;
  try {
    body = JSON.parse(response.body);
  } catch {
    // not JSON: the status alone speaks
  }
  const said = toText(valueAt(body, "error.message"));
  const quoted = said === null ? "" : `: ${context.http.excerpt(said, { maxChars: 160 })}`;
  if (status === 401) {
    return new QuotabarError(
      "unauthorized",
      `${SERVICE} refused the Gemini CLI sign-in (HTTP 401). Run \`${SIGN_IN_COMMAND}\` to sign in again.`,
      {
        status,
        remedies: [signInAgain()],
      },
    );
  }
  if (status === 429) {
    const retryAfterSeconds = retryDelayOf(valueAt(body, "error.details"));
    return new QuotabarError("rate_limited", `${SERVICE} is rate limiting quota requests (HTTP 429)${quoted}`, {
      status,
      ...(retryAfterSeconds === null ? {} : { retryAfterSeconds }),
      remedies: [{ kind: "retry", ...(retryAfterSeconds === null ? {} : { afterSeconds: retryAfterSeconds }) }],
    });
  }
  if (status === 403) {
    return new QuotabarError("forbidden", `${SERVICE} refused this account (HTTP 403)${quoted}`, {
      status,
      remedies: [advice("Check that this Google account can use Gemini Code Assist (its project, its Workspace admin settings).")],
    });
  }
  return new QuotabarError("upstream", `${SERVICE} error: HTTP ${status}${quoted}`, {
    status,
    remedies: status >= 500 ? [advice("Google's Code Assist service is having trouble."), { kind: "retry" }] : [],
  });
}

/** `RetryInfo.retryDelay` ("51820.6s") in whole seconds, where Google says how long to wait (in the body, not a header). */
function retryDelayOf(details: unknown): number | null {
  if (!Array.isArray(details)) return null;
  for (const detail of details.slice(0, 20)) {
    const delay = toText(valueAt(detail, "retryDelay"));
    const match = delay === null ? null : /^(\d{1,9})(\.\d+)?s$/.exec(delay);
    if (match) return Math.ceil(Number(`${match[1]}${match[2] ?? ""}`));
  }
  return null;
}

/** A finite number, never negative (`"1e999"` and `"lots"` are no numbers); else a parse error naming the field. */
function finite(value: unknown, field: string, problem = countProblemOf): number {
  const number = toNumber(value);
  if (number === null || !Number.isFinite(number)) throw fieldError(SERVICE, field, "expected a number");
  return problem(number, field);
}
const countProblemOf = (number: number, field: string) => checkedCount(number, field, SERVICE) as number;
/** What is left may go below zero (past the quota: a full meter) or above the whole; only no number is refused. */
const leftOf = (number: number, field: string) => checked(number, leftProblem, field, SERVICE) as number;

/** Google One AI credits left, summed over the `GOOGLE_ONE_AI` entries (int64 strings). */
function aiCreditsOf(credits: unknown): number | null {
  if (!Array.isArray(credits)) return null;
  let total: number | null = null;
  for (const [index, credit] of credits.slice(0, 20).entries()) {
    if (valueAt(credit, "creditType") !== "GOOGLE_ONE_AI") continue;
    const given = valueAt(credit, "creditAmount");
    if (given !== undefined && given !== null) total = (total ?? 0) + finite(given, `paidTier.availableCredits[${index}].creditAmount`);
  }
  return total;
}

/**
 * The buckets with a model and a fraction (others are not quotas). The kit's rule for numbers out of
 * range (domain/coerce.ts): more left than the whole (a fraction above 1) is nothing used, less than
 * nothing (below 0) a full meter; a non-numeric fraction, or a negative count, has no meaning and is
 * a parse error naming the field.
 */
function bucketsOf(raw: unknown): QuotaBucket[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw fieldError(SERVICE, "buckets", "expected an array");
  const buckets: QuotaBucket[] = [];
  for (const [index, bucket] of raw.slice(0, MAX_BUCKETS).entries()) {
    const modelId = toText(valueAt(bucket, "modelId"));
    const given = valueAt(bucket, "remainingFraction");
    if (modelId === null || given === undefined || given === null) continue;
    const fraction = finite(given, `buckets[${index}].remainingFraction`, leftOf);
    const amount = valueAt(bucket, "remainingAmount");
    buckets.push({
      modelId: modelId.slice(0, MAX_MODEL_ID),
      remainingFraction: Math.min(fraction, 1),
      remainingAmount: amount === undefined || amount === null ? null : finite(amount, `buckets[${index}].remainingAmount`),
      resetsAt: toTime(valueAt(bucket, "resetTime")),
    });
  }
  return buckets;
}
