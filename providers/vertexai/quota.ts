import { QuotabarError, type FetchContext } from "../kit/index.js";
import type { AdcCredential } from "./adc.js";
import { keepLimits, keptLimits } from "./kept-limits.js";
import { LIMIT_FILTER, quotaSeries, USAGE_FILTER } from "./monitoring.js";
import type { VertexReading } from "./policy.js";
import { accessToken, forgetKeptToken, refreshedToken } from "./token.js";

/**
 * The quota series in one round trip once something is kept: the kept token (no refresh) and the
 * kept limits (usage only). A first run, or one after they expired, pays the refresh and both
 * queries (in parallel, the limits through their second page), and keeps them for the next.
 */
export async function quotaReading(
  credential: AdcCredential,
  project: string,
  context: FetchContext,
): Promise<Pick<VertexReading, "account" | "usage" | "limits">> {
  const [signedIn, kept] = await Promise.all([accessToken(credential, context), keptLimits(context.kept, project)]);
  const read = async (token: string) => {
    const [usage, limits] = await Promise.all([
      quotaSeries(project, token, USAGE_FILTER, context),
      kept ?? quotaSeries(project, token, LIMIT_FILTER, context),
    ]);
    if (kept === null) await keepLimits(context.kept, project, limits);
    return { usage, limits };
  };
  try {
    return { account: signedIn.email, ...(await read(signedIn.token)) };
  } catch (error) {
    // a kept token Google no longer takes (revoked, or the clock moved) costs one refresh, never the run
    if (!signedIn.kept || !(error instanceof QuotabarError) || error.status !== 401) throw error;
    await forgetKeptToken(context);
    const fresh = await refreshedToken(credential, context);
    return { account: fresh.email, ...(await read(fresh.token)) };
  }
}
