import { QuotabarError, type FetchContext, type HttpResponse, type ProviderHttp } from "../kit/index.js";
import { authFailed, endpointNotFound } from "./errors.js";
import { discoverOrganizations, kiloOrganizationId, ORGANIZATION_HEADER, scopedAuthFailure } from "./organizations.js";
import { kiloReading } from "./payloads.js";
import type { KiloReading } from "./policy.js";
import { decodeTrpcBatch, KILO_PROCEDURES, kiloBatchUrl, trpcError } from "./trpc-batch.js";

const OPTIONAL_PROCEDURE = 2; // the auto top-up method; its failure never fails the fetch

const authRule = (response: HttpResponse) => authFailed(response.status === 401 ? "unauthorized" : "forbidden", response.status);
const requestFailed = (status: number) => new QuotabarError("upstream", `Kilo API request failed (HTTP ${status}).`, { status });

/**
 * One batched tRPC GET for the configured scope (the personal account, or the organization of
 * `organizationId`), the same whichever credential authorises it. Organization discovery runs
 * beside it, best effort, only to name the scope.
 */
export async function readBatch(token: string, { http, entry }: FetchContext): Promise<KiloReading> {
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
