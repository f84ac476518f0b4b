import type { FetchContext } from "../kit/index.js";
import { kimiCliHeaders, type KimiCliSession } from "./cli-credentials.js";
import { readCodeApiUsage } from "./code-api.js";
import type { WithWebToken } from "./credentials.js";
import { rejectedApiKey, rejectedCliToken } from "./errors.js";
import { readMembership } from "./membership.js";
import { kimiTierByName, type KimiReading } from "./policy.js";
import type { KimiUsage } from "./usage-body.js";
import { readWebUsage } from "./web.js";

/** The usage call and the membership call side by side; the membership never fails or outlasts its grace. */
async function reading(usage: Promise<KimiUsage>, webToken: string | null, context: FetchContext): Promise<KimiReading> {
  const [read, membership] = await Promise.all([usage, webToken ? readMembership(context.http, webToken) : null]);
  return { ...read, membership, declaredTier: kimiTierByName(context.entry.tier) };
}

/** The Kimi Code API with an API key. */
export const readKimiApi = ({ credential, webToken }: WithWebToken<string>, context: FetchContext): Promise<KimiReading> =>
  reading(readCodeApiUsage(context.http, context.env, { token: credential, rejected: rejectedApiKey }), webToken, context);

/** The Kimi Code API with the Kimi Code CLI's access token. */
export const readKimiCli = ({ credential, webToken }: WithWebToken<KimiCliSession>, context: FetchContext): Promise<KimiReading> =>
  reading(
    readCodeApiUsage(context.http, context.env, {
      token: credential.token,
      headers: kimiCliHeaders(credential),
      rejected: rejectedCliToken,
    }),
    webToken,
    context,
  );

/** GetUsages with the kimi-auth token of the Kimi console. */
export const readKimiWeb = (token: string, context: FetchContext): Promise<KimiReading> =>
  reading(readWebUsage(context.http, token), token, context);
