import * as z from "../../domain/zod.js";
import { googleWorkspaceStatus, type GoogleWorkspaceIncident, type GoogleWorkspaceUpdate } from "../../domain/status/google-workspace.js";
import type { ProviderStatus } from "../../domain/usage-document.js";
import { decodeJson } from "../../domain/decode-body.js";
import type { HttpTransport } from "../../ports/http-client.js";
import type { PolledStatusSource } from "../../ports/status-feed.js";
import { statusHttp } from "./statuspage-feed.js";

/** Every Google Workspace incident, past and present, in one JSON array. */
export const GOOGLE_WORKSPACE_INCIDENTS_URL = "https://www.google.com/appsstatus/dashboard/incidents.json";

const SERVICE = "Google Workspace status";
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/i;

// Reference §6.3: a date that does not parse fails the whole decode.
const date = z.nullish(
  z.pipe(
    z.string().check(
      z.refine((value) => ISO_8601.test(value.trim()) && !Number.isNaN(Date.parse(value.trim())), {
        message: "expected an ISO-8601 date",
      }),
    ),
    z.transform((value) => new Date(value.trim()).toISOString()),
  ),
);
const text = z.nullish(z.string());
const Product = z.object({ title: text, id: z.string() });
const Update = z.object({ when: date, status: text, text });
const Incident = z.object({
  id: z.nullish(z.union([z.string(), z.pipe(z.number(), z.transform(String))])),
  uri: text,
  begin: date,
  end: date,
  modified: date,
  external_desc: text,
  status_impact: text,
  severity: text,
  affected_products: z.nullish(z.array(Product)),
  currently_affected_products: z.nullish(z.array(Product)),
  most_recent_update: z.nullish(Update),
  updates: z.nullish(z.array(Update)),
});
export const GoogleWorkspaceFeedSchema = z.array(Incident);

export function googleWorkspaceIncidents(feed: z.output<typeof GoogleWorkspaceFeedSchema>): GoogleWorkspaceIncident[] {
  const update = (raw: z.output<typeof Update>): GoogleWorkspaceUpdate => ({
    when: raw.when ?? null,
    status: raw.status ?? null,
    text: raw.text ?? null,
  });
  return feed.map((raw) => ({
    id: raw.id ?? null,
    uri: raw.uri ?? null,
    begin: raw.begin ?? null,
    end: raw.end ?? null,
    modified: raw.modified ?? null,
    externalDesc: raw.external_desc ?? null,
    statusImpact: raw.status_impact ?? null,
    severity: raw.severity ?? null,
    affectedProducts: raw.affected_products?.map((p) => p.id) ?? null,
    currentlyAffectedProducts: raw.currently_affected_products?.map((p) => p.id) ?? null,
    mostRecentUpdate: raw.most_recent_update ? update(raw.most_recent_update) : null,
    updates: raw.updates?.map(update) ?? null,
  }));
}

/** The Google Workspace incidents feed, filtered to the source's product (Antigravity and Gemini CLI: Gemini). */
export async function readGoogleWorkspace(
  transport: HttpTransport,
  source: Extract<PolledStatusSource, { feed: "google-workspace" }>,
  signal?: AbortSignal,
): Promise<ProviderStatus> {
  return googleWorkspaceStatus(await incidentsOnce(transport, signal), source.productId, source.url);
}

/**
 * The feed is hundreds of kilobytes and several providers read it: the polls of one transport that
 * overlap share one request and one decode (the first poll's signal governs it).
 */
const inFlight = new WeakMap<HttpTransport, Promise<GoogleWorkspaceIncident[]>>();

function incidentsOnce(transport: HttpTransport, signal?: AbortSignal): Promise<GoogleWorkspaceIncident[]> {
  const pending = inFlight.get(transport);
  if (pending) return pending;
  const poll = (async () => {
    const response = await statusHttp(transport, SERVICE, signal).request({
      url: GOOGLE_WORKSPACE_INCIDENTS_URL,
      headers: { Accept: "application/json" },
    });
    return googleWorkspaceIncidents(decodeJson(response.body, GoogleWorkspaceFeedSchema, SERVICE));
  })().finally(() => inFlight.delete(transport));
  inFlight.set(transport, poll);
  return poll;
}
