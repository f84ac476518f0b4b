import * as z from "../../domain/zod.js";
import { QuotabarError } from "../../domain/errors.js";
import { incidentIoStatus, wholePageDecides, type StatusOverlay } from "../../domain/status/incident-io.js";
import {
  statuspageStatus,
  type StatuspageComponent,
  type StatuspageIncident,
  type StatuspageReading,
} from "../../domain/status/statuspage.js";
import { fromIso } from "../../domain/coerce.js";
import { decodeJson, tryJson } from "../../domain/decode-body.js";
import { advice } from "../../domain/remedy.js";
import { scopedHttp } from "../../domain/scoped-http.js";
import type { ProviderStatus } from "../../domain/usage-document.js";
import type { HttpResponse, HttpTransport, ProviderHttp } from "../../ports/http-client.js";
import type { PolledStatusSource } from "../../ports/status-feed.js";
import { trimTrailingSlashes } from "../../domain/url-text.js";
import { incidentIoProxyUrl, incidentIoReading } from "./incident-io-feed.js";

/** Reference §6.2: 10 s per status request. */
export const STATUS_TIMEOUT_MS = 10_000;

type StatuspageSource = Extract<PolledStatusSource, { feed: "statuspage" }>;

// Every field may be missing; a present field of the wrong type is a parse error naming it.
const text = z.nullish(z.string());
const ComponentRef = z.object({ id: text, name: text });
const StatuspageIncidentSchema = z.object({
  id: text,
  name: text,
  impact: text,
  status: text,
  shortlink: text,
  created_at: text,
  updated_at: text,
  resolved_at: text,
  components: z.nullish(z.array(ComponentRef)),
});
const StatuspageComponentSchema = z.object({
  id: text,
  name: text,
  status: text,
  group: z.nullish(z.boolean()),
  group_id: text,
});
export const StatuspageSummarySchema = z
  .object({
    status: z.nullish(z.object({ indicator: text, description: text })),
    incidents: z.nullish(z.array(StatuspageIncidentSchema)),
    scheduled_maintenances: z.nullish(z.array(StatuspageIncidentSchema)),
    components: z.nullish(z.array(StatuspageComponentSchema)),
  })
  .check(z.refine((body) => body.status != null || body.incidents != null, { message: "expected an object", path: ["status"] }));

/** `components.json`: every component of the page, groups and their members alike. */
export const StatuspageComponentsSchema = z.object({ components: z.array(StatuspageComponentSchema) });

const toComponent = (raw: z.output<typeof StatuspageComponentSchema>): StatuspageComponent => ({
  id: raw.id ?? null,
  name: raw.name ?? null,
  status: raw.status ?? null,
  group: raw.group === true,
  groupId: raw.group_id ?? null,
});

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
      componentIds: raw.components ? raw.components.flatMap((c) => (c.id ? [c.id] : [])) : null,
    }) satisfies StatuspageIncident;
  return {
    indicator: body.status?.indicator ?? null,
    description: body.status?.description ?? null,
    incidents: [...(body.incidents ?? []).map(toIncident(false)), ...(body.scheduled_maintenances ?? []).map(toIncident(true))],
    components: (body.components ?? []).map(toComponent),
  };
}

/** A decoded components.json body as the domain reads it. */
export function statuspageComponents(body: z.output<typeof StatuspageComponentsSchema>): StatuspageComponent[] {
  return body.components.map(toComponent);
}

/**
 * A Statuspage-style page, as the reference's HEAD reads it today:
 *
 * 1. The incident.io feed `https://<host>/proxy/<host>`: when it answers with a component
 *    structure, the components decide (and, when the whole page does, `status.json` lends its
 *    description). Any other answer (404, not JSON, another shape, an error) means "not an
 *    incident.io page".
 * 2. Else Statuspage v2: `summary.json` (the indicator, description and unresolved incidents and
 *    maintenances; a page without it, HTTP 404, is asked for `status.json`) and, for a provider
 *    that names its components, `components.json` alongside, best effort (summary.json's own
 *    component list stands in when it fails).
 *
 * Only summary.json / status.json can fail the read; the other requests are extras.
 */
export async function readStatuspage(transport: HttpTransport, source: StatuspageSource, signal?: AbortSignal): Promise<ProviderStatus> {
  const base = trimTrailingSlashes(source.url);
  const service = new URL(base).host;
  const ask = (url: string, rules: "any" | "404" = "404") =>
    statusHttp(transport, service, signal).request({
      url,
      headers: { Accept: "application/json" },
      statusRules: rules === "any" ? { "4xx": "pass", "5xx": "pass" } : { 404: "pass" },
    });
  const extra = async (url: string): Promise<HttpResponse | null> => {
    try {
      const response = await ask(url, "any");
      return response.status >= 200 && response.status < 300 ? response : null;
    } catch (error) {
      if (signal?.aborted) throw error; // the caller gave up: stop here, not on the next request
      return null;
    }
  };

  const proxy = await extra(incidentIoProxyUrl(base));
  const incidentIo = proxy ? incidentIoReading(proxy.body) : null;
  if (incidentIo) {
    const overlay = wholePageDecides(incidentIo, source.components) ? statusOverlay(await extra(`${base}/api/v2/status.json`)) : null;
    return incidentIoStatus(incidentIo, source.url, source.components, overlay);
  }

  const readSummary = async () => {
    let response = await ask(`${base}/api/v2/summary.json`);
    if (response.status === 404) {
      response = await ask(`${base}/api/v2/status.json`);
      if (response.status === 404) {
        throw new QuotabarError("upstream", `${service} API error: HTTP 404`, {
          status: 404,
          remedies: [advice("The status page moved or is not a Statuspage.")],
        });
      }
    }
    return statuspageReading(decodeJson(response.body, StatuspageSummarySchema, service));
  };
  const readComponents = async () => {
    if (!source.components?.length) return null;
    const response = await extra(`${base}/api/v2/components.json`);
    const parsed = StatuspageComponentsSchema.safeParse(response ? tryJson(response.body) : null);
    return parsed.success ? statuspageComponents(parsed.data) : null;
  };
  const [summary, components] = await Promise.allSettled([readSummary(), readComponents()]);
  if (summary.status === "rejected") throw summary.reason;
  if (components.status === "rejected") throw components.reason; // only when the caller gave up
  return statuspageStatus(summary.value, source.url, { names: source.components, components: components.value });
}

/** The page's own indicator and description from its status.json, when it answered with them. */
function statusOverlay(response: HttpResponse | null): StatusOverlay | null {
  const parsed = StatuspageSummarySchema.safeParse(response ? tryJson(response.body) : null);
  if (!parsed.success) return null;
  return { indicator: parsed.data.status?.indicator ?? null, description: parsed.data.status?.description ?? null };
}

/** A status request gets its own small budget, cut short when the caller's signal fires. */
export function statusHttp(transport: HttpTransport, service: string, signal?: AbortSignal): ProviderHttp {
  return scopedHttp(transport, {
    service,
    signal: signal ?? new AbortController().signal,
    deadline: Date.now() + STATUS_TIMEOUT_MS,
    budgetMs: STATUS_TIMEOUT_MS,
    secrets: [],
  });
}
