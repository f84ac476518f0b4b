import {
  advice,
  browserLookupAdvice,
  cleanSecret,
  fromEnv,
  notConfigured,
  QuotabarError,
  type CredentialContext,
  type CredentialSource,
  type FetchContext,
  type FetchStrategy,
} from "../kit/index.js";
import { FRESH_COOKIE, isRefusal, KEY_ENV, refusedOn, SET_KEY } from "./errors.js";
import { minimaxSnapshot, type MiniMaxReading } from "./policy.js";
import { minimaxRemainsReading, remainsJson } from "./remains.js";
import { minimaxApiRegion, minimaxApiRemainsUrls, minimaxEndpointPinned, type MiniMaxRegion } from "./urls.js";

/** Standard keys (sk-api-...) cannot read the coding plan; MiniMax's own client sends them to the web route. */
const STANDARD_KEY_PREFIX = "sk-api-";

/** Config `apiKey` first, then the variables in order; read synchronously too, for the missing-credential message. */
const configuredKey = (context: CredentialContext) => cleanSecret(context.entry.apiKey) ?? fromEnv(context, KEY_ENV);
const isStandardKey = (key: string | null) => key?.startsWith(STANDARD_KEY_PREFIX) ?? false;

/** The API token; in auto mode a standard key is left aside so the web route can answer. */
const apiToken: CredentialSource<string> = {
  async resolve(context) {
    const key = configuredKey(context);
    return isStandardKey(key) && context.sourceMode === "auto" ? null : key;
  },
};

export const minimaxApi: FetchStrategy<string, MiniMaxReading> = {
  source: "api",
  credentials: apiToken,
  toSnapshot: minimaxSnapshot,
  // A refused token, or no remains endpoint on any path, still leaves the web session to try.
  fallbackOn: (error) => isRefusal(error) || error.status === 404,
  missingCredential: (context) =>
    notConfigured(
      isStandardKey(configuredKey(context))
        ? "MiniMax standard API keys (sk-api-...) cannot read the coding plan, and no cookie header is configured."
        : "MiniMax API token not found. Set apiKey in the config file, MINIMAX_CODING_API_KEY or MINIMAX_API_KEY.",
      ...SET_KEY,
      ...browserLookupAdvice(context),
      ...FRESH_COOKIE,
    ),
  async fetch(token, context) {
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
  },
};

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
