import { z } from "zod";
import { QuotabarError } from "../../domain/errors.js";
import { statuspageStatus, type StatuspageIncident, type StatuspageReading } from "../../domain/status/statuspage.js";
import { fromIso } from "../../domain/coerce.js";
import { decodeJson } from "../../domain/decode-body.js";
import { advice } from "../../domain/remedy.js";
import { scopedHttp } from "../../domain/scoped-http.js";
import type { ProviderStatus } from "../../domain/usage-document.js";
import type { HttpTransport, ProviderHttp } from "../../ports/http-client.js";
import type { PolledStatusSource } from "../../ports/status-feed.js";
import { trimTrailingSlashes } from "../../domain/url-text.js";

/** Reference §6.2: 10 s per status request. */
export const STATUS_TIMEOUT_MS = 10_000;

// Every field may be missing; a present field of the wrong type is a parse error naming it.
const text = z.string().nullish();
const StatuspageIncidentSchema = z.object({
  id: text,
  name: text,
  impact: text,
  status: text,
  shortlink: text,
  created_at: text,
  updated_at: text,
  resolved_at: text,
});
export const StatuspageSummarySchema = z
  .object({
    status: z.object({ indicator: text, description: text }).nullish(),
    incidents: z.array(StatuspageIncidentSchema).nullish(),
    scheduled_maintenances: z.array(StatuspageIncidentSchema).nullish(),
  })
  .refine((body) => body.status != null || body.incidents != null, { message: "expected an object", path: ["status"] });

/** A decoded summary.json (or status.json) body as the domain reads it. */
export function statuspageReading(body: z.output<typeof StatuspageSummarySchema>): StatuspageReading {
  const toIncident = (maintenance: boolean) => (raw: z.output<typeof StatuspageIncidentSchema>) =>
    ({
      id: raw.id ?? null,
      name: raw.name ?? null,
      impact: raw.impact ?? null,
      status: raw.status ?? null,
      shortlink: raw.shortlink ?? null,
      updatedAt: fromIso(raw.updated_at) ?? fromIso(raw.created_at),
      resolvedAt: fromIso(raw.resolved_at),
      maintenance,
    }) satisfies StatuspageIncident;
  return {
    indicator: body.status?.indicator ?? null,
    description: body.status?.description ?? null,
    incidents: [...(body.incidents ?? []).map(toIncident(false)), ...(body.scheduled_maintenances ?? []).map(toIncident(true))],
  };
}

/**
 * Statuspage v2: `GET <base>/api/v2/summary.json` gives the overall indicator and the unresolved
 * incidents (and maintenances) in one request. A page that has no summary.json (404) is asked
 * for `status.json`, the indicator alone, as the v0.18 client did.
 */
export async function readStatuspage(transport: HttpTransport, source: PolledStatusSource, signal?: AbortSignal): Promise<ProviderStatus> {
  const base = trimTrailingSlashes(source.url);
  const service = new URL(base).host;
  const http = statusHttp(transport, service, signal);
  const ask = (path: string) =>
    http.request({ url: `${base}${path}`, headers: { Accept: "application/json" }, statusRules: { 404: "pass" } });
  let response = await ask("/api/v2/summary.json");
  if (response.status === 404) {
    response = await ask("/api/v2/status.json");
    if (response.status === 404) {
      throw new QuotabarError("upstream", `${service} API error: HTTP 404`, {
        status: 404,
        remedies: [advice("The status page moved or is not a Statuspage.")],
      });
    }
  }
  return statuspageStatus(statuspageReading(decodeJson(response.body, StatuspageSummarySchema, service)), source.url);
}

/** A status page gets its own small budget, cut short when the caller's signal fires. */
export function statusHttp(transport: HttpTransport, service: string, signal?: AbortSignal): ProviderHttp {
  return scopedHttp(transport, {
    service,
    signal: signal ?? new AbortController().signal,
    deadline: Date.now() + STATUS_TIMEOUT_MS,
    budgetMs: STATUS_TIMEOUT_MS,
    secrets: [],
  });
}
