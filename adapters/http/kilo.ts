import { QuotabarError } from "../../domain/errors.js";
import {
  KILO_PROCEDURES,
  KILO_TRPC_BASE,
  kiloSnapshot,
  kiloSourceMode,
  type KiloReading,
  type KiloSourceMode,
} from "../../domain/providers/kilo.js";
import type { SourceKind } from "../../domain/providers/descriptor.js";
import type { CredentialSource } from "../../ports/credential-source.js";
import type { FetchContext } from "../../ports/fetch-context.js";
import type { FetchStrategy } from "../../ports/fetch-strategy.js";
import type { HttpClient, HttpResponse } from "../../ports/http-client.js";
import { kiloAuthFilePath, kiloCliSession, kiloSessionNotFound } from "../kilo/cli-session.js";
import { apiKeyCredential } from "./api-key-credential.js";
import { decodeTrpcBatch, KILO_AUTH_FAILED, KILO_AUTH_HINT, KILO_NOT_FOUND, trpcError } from "./kilo-batch.js";
import { kiloReading } from "./kilo-fields.js";

const SERVICE = "Kilo";
const OPTIONAL_PROCEDURE = 2; // the auto top-up method; its failure never fails the fetch

/** `GET /api/trpc/a,b,c?batch=1&input={"0":{"json":null},...}` */
export function kiloBatchUrl(): string {
  const input = Object.fromEntries(KILO_PROCEDURES.map((_, index) => [String(index), { json: null }]));
  const query = new URLSearchParams({ batch: "1", input: JSON.stringify(input) });
  return `${KILO_TRPC_BASE}/${KILO_PROCEDURES.join(",")}?${query.toString()}`;
}

const inMode = (context: FetchContext, mode: KiloSourceMode) => kiloSourceMode(context.sourceMode) === mode;
const runsIn = (own: KiloSourceMode) => (sourceMode: string) => {
  const mode = kiloSourceMode(sourceMode);
  return mode === "auto" || mode === own;
};

/** The API key (config `apiKey`, else KILO_API_KEY), then the CLI session: spec section 3.2. */
export function kiloStrategies(http: HttpClient): FetchStrategy<string, KiloReading>[] {
  return [
    kiloStrategy(http, "api", apiKeyCredential(["KILO_API_KEY"]), {
      appliesTo: runsIn("api"),
      // In auto mode a rejected key falls back to the CLI session (a missing key already does).
      fallbackOn: (error, context) => inMode(context, "auto") && (error.code === "unauthorized" || error.code === "forbidden"),
      missingCredential: (context) =>
        inMode(context, "auto")
          ? kiloSessionNotFound(kiloAuthFilePath(context.env)).withHint(
              "Set KILO_API_KEY, or run `quotabar config set-key kilo --stdin` (providers[kilo].apiKey), or run `kilo login` for the CLI session.",
            )
          : new QuotabarError("not_configured", "Kilo API credentials missing. Set KILO_API_KEY.", {
              hint: `Export KILO_API_KEY, or run \`quotabar config set-key kilo --stdin\` to store it as providers[kilo].apiKey in ${context.configPath}.`,
            }),
    }),
    kiloStrategy(http, "cli", kiloCliSession, {
      appliesTo: runsIn("cli"),
      missingCredential: (context) => kiloSessionNotFound(kiloAuthFilePath(context.env)),
    }),
  ];
}

function kiloStrategy(
  http: HttpClient,
  source: SourceKind,
  credentials: CredentialSource<string>,
  rest: Pick<FetchStrategy<string, KiloReading>, "appliesTo" | "fallbackOn" | "missingCredential">,
): FetchStrategy<string, KiloReading> {
  return {
    source,
    credentials,
    toSnapshot: kiloSnapshot,
    usage: {
      async fetch(token, context) {
        const response = await requestBatch(http, token, context);
        const results = decodeTrpcBatch(response.body, KILO_PROCEDURES.length);
        const payloads = results.map((result, index) => {
          if (result?.kind !== "error") return result?.payload ?? null;
          if (index === OPTIONAL_PROCEDURE) return null;
          throw trpcError(KILO_PROCEDURES[index] as string, result);
        });
        return kiloReading(payloads[0], payloads[1], payloads[2]);
      },
    },
    ...rest,
  };
}

async function requestBatch(http: HttpClient, token: string, context: FetchContext): Promise<HttpResponse> {
  const response = await http.request({
    url: kiloBatchUrl(),
    headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
    service: SERVICE,
    secrets: [token],
    signal: context.signal,
    timeoutMs: context.timeoutMs,
    acceptStatuses: "any",
  });
  const { status } = response;
  // 207 is tRPC's answer to a batch with mixed outcomes: its body still holds the procedures.
  if (status === 200 || status === 207) return response;
  if (status === 401 || status === 403) {
    throw new QuotabarError(status === 401 ? "unauthorized" : "forbidden", KILO_AUTH_FAILED, { status, hint: KILO_AUTH_HINT });
  }
  if (status === 404)
    throw new QuotabarError("upstream", KILO_NOT_FOUND, { status, hint: "Kilo may have renamed its API; please report it." });
  if (status === 429)
    throw new QuotabarError("rate_limited", `Kilo API request failed (HTTP ${status}).`, { status, hint: "Retry in a minute." });
  if (status >= 500) {
    throw new QuotabarError("upstream", `Kilo API is currently unavailable (HTTP ${status}). Try again later.`, { status });
  }
  throw new QuotabarError("upstream", `Kilo API request failed (HTTP ${status}).`, { status });
}
