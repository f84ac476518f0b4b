import { cleanSecret, fromEnv, type CredentialSource, type FetchContext, type FetchStrategy, type QuotabarError } from "../kit/index.js";
import { kimiCliCredentialsFile, kimiCliHeaders, kimiCliSession, type KimiCliSession } from "./cli-credentials.js";
import { readCodeApiUsage } from "./code-api.js";
import { API_KEY_ENV, missingAny, missingApiKey, missingCliSession, missingWebToken, rejectedApiKey, rejectedCliToken } from "./errors.js";
import { readMembership } from "./membership.js";
import { kimiSnapshot, kimiTierByName, type KimiReading } from "./policy.js";
import { kimiAuthTokenFromText } from "./token.js";
import type { KimiUsage } from "./usage-body.js";
import { kimiAuthToken, pastedKimiAuthToken, readWebUsage } from "./web.js";

/** A credential of the Kimi Code API, with the kimi-auth token when one is found too (for the membership call). */
interface WithWebToken<T> {
  credential: T;
  webToken: string | null;
}

/** The membership beside the API routes uses a token put in place only: no browser is read for a decoration. */
const withWebToken = <T>(source: CredentialSource<T>): CredentialSource<WithWebToken<T>> => ({
  async resolve(context) {
    const credential = await source.resolve(context);
    return credential === null ? null : { credential, webToken: await pastedKimiAuthToken.resolve(context) };
  },
});

/** Config `apiKey` unless it holds a kimi-auth token (the web route takes that), then KIMI_CODE_API_KEY. */
const kimiCodeApiKey: CredentialSource<string> = {
  resolve: async (context) => {
    const stored = cleanSecret(context.entry.apiKey);
    return stored !== null && kimiAuthTokenFromText(stored) === null ? stored : fromEnv(context, API_KEY_ENV);
  },
};

/** The usage call and the membership call side by side; the membership never fails or outlasts its grace. */
async function reading(usage: Promise<KimiUsage>, webToken: string | null, context: FetchContext): Promise<KimiReading> {
  const [{ weekly, rateLimit }, membership] = await Promise.all([usage, webToken ? readMembership(context.http, webToken) : null]);
  return { weekly, rateLimit, membership, declaredTier: kimiTierByName(context.entry.tier) };
}

const isAuto = (context: { sourceMode: string }) => context.sourceMode === "auto";
/** In auto mode a failed route hands over to the next one, except for a bad override or a spent budget. */
const handsOver = (error: QuotabarError, context: FetchContext) =>
  isAuto(context) && error.code !== "not_configured" && error.code !== "timeout";

/** The Kimi Code API with an API key. */
export const kimiApi: FetchStrategy<WithWebToken<string>, KimiReading> = {
  source: "api",
  credentials: withWebToken(kimiCodeApiKey),
  missingCredential: (context) => (isAuto(context) ? missingAny(context) : missingApiKey()),
  fallbackOn: handsOver,
  toSnapshot: kimiSnapshot,
  fetch: ({ credential, webToken }, context) =>
    reading(readCodeApiUsage(context.http, context.env, { token: credential, rejected: rejectedApiKey }), webToken, context),
};

/** The Kimi Code API with the Kimi Code CLI's access token. */
export const kimiCli: FetchStrategy<WithWebToken<KimiCliSession>, KimiReading> = {
  source: "cli",
  credentials: withWebToken(kimiCliSession),
  missingCredential: (context) => (isAuto(context) ? missingAny(context) : missingCliSession(kimiCliCredentialsFile(context.env))),
  fallbackOn: handsOver,
  toSnapshot: kimiSnapshot,
  fetch: ({ credential, webToken }, context) =>
    reading(
      readCodeApiUsage(context.http, context.env, {
        token: credential.token,
        headers: kimiCliHeaders(credential),
        rejected: rejectedCliToken,
      }),
      webToken,
      context,
    ),
};

/** GetUsages with the kimi-auth token of the Kimi console. */
export const kimiWeb: FetchStrategy<string, KimiReading> = {
  source: "web",
  credentials: kimiAuthToken,
  missingCredential: (context) => (isAuto(context) ? missingAny(context) : missingWebToken(context)),
  toSnapshot: kimiSnapshot,
  fetch: (token, context) => reading(readWebUsage(context.http, token), token, context),
};
