import { advice, QuotabarError, type FetchContext } from "../kit/index.js";
import { isRefusal, refusedOn, SET_KEY } from "./errors.js";
import type { MiniMaxReading } from "./policy.js";
import { minimaxRemainsReading, remainsJson } from "./remains.js";
import { minimaxApiRegion, minimaxApiRemainsUrls, minimaxEndpointPinned, type MiniMaxRegion } from "./urls.js";

/** The coding plan read with an API token, on the region's host. */
export async function readMinimaxApi(token: string, context: FetchContext): Promise<MiniMaxReading> {
  const region = minimaxApiRegion(context);
  try {
    return await remainsWithToken(token, context, region);
  } catch (thrown) {
    const error = thrown as QuotabarError;
    // A Global token refused on the Global host may belong to the China platform: try there once.
    if (region !== "global" || !isRefusal(error) || minimaxEndpointPinned(context)) throw error;
    return await remainsWithToken(token, context, "cn").catch(() => {
      throw error;
    });
  }
}

/** Today's path first, then the earlier ones, each when the one before answers 404. */
async function remainsWithToken(token: string, context: FetchContext, region: MiniMaxRegion): Promise<MiniMaxReading> {
  for (const url of minimaxApiRemainsUrls(context, region)) {
    const response = await context.http.request({
      url,
      headers: {
        Authorization: `Bearer ${token}`,
        accept: "application/json",
        "Content-Type": "application/json",
        "MM-API-Source": "quotabar",
      },
      statusRules: { ...refusedOn(SET_KEY), 404: "pass" },
    });
    if (response.status === 404) continue;
    return minimaxRemainsReading(remainsJson(response.body), "api");
  }
  throw new QuotabarError("upstream", "MiniMax API error: HTTP 404", {
    status: 404,
    remedies: [
      advice("No remains endpoint exists on this host; check the endpoint overrides in the environment, or the region."),
      { kind: "set-config", provider: "minimax", field: "region", example: "cn" },
    ],
  });
}
