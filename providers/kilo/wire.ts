import {
  apiKey,
  missingKey,
  QuotabarError,
  type FetchContext,
  type FetchStrategy,
  type HttpResponse,
  type ProviderHttp,
} from "../kit/index.js";
import { kiloAuthFile, kiloCliSession } from "./cli-session.js";
import { authFailed, endpointNotFound, KILO_ENV, sessionNotFound } from "./errors.js";
import { discoverOrganizations, kiloOrganizationId, ORGANIZATION_HEADER, scopedAuthFailure } from "./organizations.js";
import { kiloReading } from "./payloads.js";
import { kiloSnapshot, type KiloReading } from "./policy.js";
import { decodeTrpcBatch, KILO_PROCEDURES, kiloBatchUrl, trpcError } from "./trpc-batch.js";

const OPTIONAL_PROCEDURE = 2; // the auto top-up method; its failure never fails the fetch

/** Auto tries the API and falls back to the CLI session; api and cli use only that one. */
export type KiloSourceMode = "auto" | "api" | "cli";

/** The configured or requested mode; `web` and `oauth` mean auto (as the real client does), others none. */
export function kiloSourceMode(mode: string): KiloSourceMode | null {
  const value = mode.trim().toLowerCase();
  if (value === "" || value === "auto" || value === "web" || value === "oauth") return "auto";
  return value === "api" || value === "cli" ? value : null;
}

const isAuto = (sourceMode: string) => kiloSourceMode(sourceMode) === "auto";
const runsIn = (own: KiloSourceMode) => (sourceMode: string) => {
  const mode = kiloSourceMode(sourceMode);
  return mode === "auto" || mode === own;
};

const authRule = (response: HttpResponse) => authFailed(response.status === 401 ? "unauthorized" : "forbidden", response.status);
const requestFailed = (status: number) => new QuotabarError("upstream", `Kilo API request failed (HTTP ${status}).`, { status });

/**
 * One batched tRPC GET for the configured scope (the personal account, or the organization of
 * `organizationId`), the same whichever credential authorises it. Organization discovery runs
 * beside it, best effort, only to name the scope.
 */
async function readBatch(token: string, { http, entry }: FetchContext): Promise<KiloReading> {
  const organizationId = kiloOrganizationId(entry);
  const organizations = discoverOrganizations(http, token);
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: "application/json" };
  if (organizationId !== null) headers[ORGANIZATION_HEADER] = organizationId;
  const payloads = await readUsage(http, headers).catch((error: QuotabarError) => {
    throw organizationId === null ? error : scopedAuthFailure(error);
  });
  const reading = kiloReading(payloads[0], payloads[1], payloads[2]); // a bad payload fails before discovery is awaited
  return { ...reading, scope: { organizationId, organizations: await organizations } };
}

async function readUsage(http: ProviderHttp, headers: Record<string, string>): Promise<unknown[]> {
  const response = await http.request({
    url: kiloBatchUrl(),
    headers,
    // the messages have always said Kilo, not Kilo Code
    service: "Kilo",
    statusRules: {
      401: authRule,
      403: authRule,
      404: (r) => endpointNotFound(r.status),
      429: (r) =>
        new QuotabarError("rate_limited", `Kilo API request failed (HTTP ${r.status}).`, {
          status: r.status,
          remedies: [{ kind: "retry", afterSeconds: 60 }],
        }),
      "5xx": (r) =>
        new QuotabarError("upstream", `Kilo API is currently unavailable (HTTP ${r.status}). Try again later.`, { status: r.status }),
      "4xx": (r) => requestFailed(r.status),
    },
  });
  // 207 is tRPC's answer to a batch with mixed outcomes: its body still holds the procedures.
  if (response.status !== 200 && response.status !== 207) throw requestFailed(response.status);
  return decodeTrpcBatch(response.body, KILO_PROCEDURES.length).map((result, index) => {
    if (result?.kind !== "error") return result?.payload ?? null;
    if (index === OPTIONAL_PROCEDURE) return null;
    throw trpcError(KILO_PROCEDURES[index] as string, result);
  });
}

/** The API key (config `apiKey`, else KILO_API_KEY). */
export const kiloApi: FetchStrategy<string, KiloReading> = {
  source: "api",
  credentials: apiKey(KILO_ENV),
  fetch: readBatch,
  toSnapshot: kiloSnapshot,
  appliesTo: runsIn("api"),
  // In auto mode a rejected key falls back to the CLI session (a missing key already does).
  fallbackOn: (error, context) => isAuto(context.sourceMode) && (error.code === "unauthorized" || error.code === "forbidden"),
  missingCredential: (context) =>
    isAuto(context.sourceMode)
      ? sessionNotFound(kiloAuthFile(context.env), "auto")
      : missingKey("kilo", KILO_ENV, "Kilo API credentials missing. Set KILO_API_KEY."),
};

/** The Kilo CLI's access token, on the same API. */
export const kiloCli: FetchStrategy<string, KiloReading> = {
  source: "cli",
  credentials: kiloCliSession,
  fetch: readBatch,
  toSnapshot: kiloSnapshot,
  appliesTo: runsIn("cli"),
  missingCredential: (context) => sessionNotFound(kiloAuthFile(context.env), "cli"),
};
