import * as z from "../../domain/zod.js";
import {
  advice,
  decodeValue,
  isObject,
  parseBoundedJson,
  QuotabarError,
  statusError,
  toText,
  tryJson,
  type FetchContext,
  type HttpResponse,
  type ProviderHttp,
  type StatusRules,
} from "../kit/index.js";
import { zCount, zNumber } from "../kit/schema.js";
import { SIGN_IN_COMMAND, signInAgain } from "./adc.js";
import type { QuotaSeries } from "./policy.js";

/** Cloud Monitoring `projects.timeSeries.list` for Vertex AI's `consumer_quota` series, every page. */

const SERVICE = "Vertex AI";
const VERTEX_QUOTA = 'resource.type="consumer_quota" AND resource.label.service="aiplatform.googleapis.com"';
export const USAGE_FILTER = `metric.type="serviceruntime.googleapis.com/quota/allocation/usage" AND ${VERTEX_QUOTA}`;
export const LIMIT_FILTER = `metric.type="serviceruntime.googleapis.com/quota/limit" AND ${VERTEX_QUOTA}`;

const DAY_MS = 86_400_000;
/** A server that keeps handing out page tokens cannot keep the fetch going. */
const MAX_PAGES = 50;
export const MAX_SERIES = 20_000;

/** Google's labels are strings; anything else in them is ignored rather than fatal. */
const Labels = z.nullish(z.record(z.string(), z.unknown()));
/** A page of series whose points are `number`s: int64 comes as text (`"42"`), doubles as numbers; either shape is read. */
const pageOf = (number: z.ZodMiniType<number>) => {
  const Point = z.object({ value: z.nullish(z.object({ doubleValue: z.nullish(number), int64Value: z.nullish(number) })) });
  return z.object({
    timeSeries: z.nullish(
      z.array(
        z.object({ metric: z.object({ labels: Labels }), resource: z.object({ labels: Labels }), points: z.nullish(z.array(Point)) }),
      ),
    ),
    nextPageToken: z.nullish(z.string()),
  });
};
// Usage is a count: a negative point is a parse error naming it. A limit below zero is how Google's
// quota APIs say "unlimited" (-1): no limit to measure against, so `reduced` leaves it out.
const UsagePage = pageOf(zCount);
const LimitPage = pageOf(zNumber);
type Series = NonNullable<z.output<typeof LimitPage>["timeSeries"]>[number];

/** `2026-03-09T12:00:00Z`: UTC without fractions. */
const utcSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");

export async function quotaSeries(project: string, token: string, filter: string, context: FetchContext): Promise<QuotaSeries[]> {
  const end = context.now().getTime();
  const params: [string, string][] = [
    ["filter", filter],
    ["interval.startTime", utcSeconds(end - DAY_MS)],
    ["interval.endTime", utcSeconds(end)],
    ["aggregation.alignmentPeriod", "3600s"],
    ["aggregation.perSeriesAligner", "ALIGN_MAX"],
    ["view", "FULL"],
  ];
  const series: QuotaSeries[] = [];
  const tokens = new Set<string>();
  for (let page = 0, pageToken = ""; page < MAX_PAGES && series.length < MAX_SERIES; page++) {
    const query = [...params, ...(pageToken ? [["pageToken", pageToken] as [string, string]] : [])]
      .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
      .join("&");
    const response = await context.http.request({
      url: `https://monitoring.googleapis.com/v3/projects/${encodeURIComponent(project)}/timeSeries?${query}`,
      headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
      statusRules: statusRules(project, context.http),
    });
    const body = decodeValue(parseBoundedJson(response.body, SERVICE), filter === USAGE_FILTER ? UsagePage : LimitPage, SERVICE);
    series.push(...(body.timeSeries ?? []).flatMap(reduced));
    pageToken = body.nextPageToken ?? "";
    if (pageToken === "" || tokens.has(pageToken)) break;
    tokens.add(pageToken);
  }
  return series.slice(0, MAX_SERIES);
}

const label = (labels: Record<string, unknown> | null | undefined, name: string) => toText(labels?.[name]);

/** A series as its key and its highest point; none when it names no quota or holds no usable point. */
function reduced(series: Series): QuotaSeries[] {
  const metric = series.metric.labels;
  const resource = series.resource.labels;
  const quotaMetric = label(metric, "quota_metric") ?? label(resource, "quota_id");
  const values = (series.points ?? [])
    .map((p) => p.value?.doubleValue ?? p.value?.int64Value)
    .filter((v): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0);
  if (quotaMetric === null || values.length === 0) return [];
  return [
    {
      quotaMetric,
      limitName: label(metric, "limit_name") ?? "",
      location: label(resource, "location") ?? "global",
      value: Math.max(...values),
    },
  ];
}

function statusRules(project: string, http: ProviderHttp): StatusRules {
  const invalid = (r: HttpResponse) =>
    new QuotabarError("upstream", `Vertex AI response was invalid: HTTP ${r.status}: ${summary(r.body, http)}`, {
      status: r.status,
      remedies: r.status >= 500 ? [advice("Cloud Monitoring is having trouble."), { kind: "retry" }] : [],
    });
  return {
    401: (r) =>
      new QuotabarError("unauthorized", `Vertex AI request unauthorized. Run \`${SIGN_IN_COMMAND}\`.`, {
        status: r.status,
        remedies: [signInAgain()],
      }),
    403: (r) =>
      new QuotabarError("forbidden", "Access forbidden. Check your IAM permissions for Cloud Monitoring.", {
        status: r.status,
        remedies: [
          apiDisabled(r.body)
            ? advice(
                `Enable the Cloud Monitoring API for project ${project}: https://console.cloud.google.com/apis/library/monitoring.googleapis.com?project=${project}`,
              )
            : advice(`The account needs the monitoring.timeSeries.list permission (the Monitoring Viewer role) on project ${project}.`),
        ],
      }),
    // Google's rate limit keeps its own meaning (and its Retry-After)
    429: (r, service) => statusError(r, service) as QuotabarError,
    "4xx": invalid,
    "5xx": invalid,
  };
}

/** Google's answer when the Cloud Monitoring API is off for the project (reason SERVICE_DISABLED). */
function apiDisabled(body: string): boolean {
  const error = valueOfError(body);
  const reasons = Array.isArray(error?.details) ? error.details.map((d) => (isObject(d) ? toText(d.reason) : null)) : [];
  return reasons.includes("SERVICE_DISABLED") || /has not been used in project|it is disabled/i.test(toText(error?.message) ?? "");
}

const valueOfError = (body: string) => {
  const value = tryJson(body);
  return isObject(value) && isObject(value.error) ? value.error : null;
};

/** Google's `error.message`, else the text, redacted, flattened and cut to 200 characters. */
function summary(body: string, http: ProviderHttp): string {
  return http.excerpt(toText(valueOfError(body)?.message) ?? body) || "empty body";
}
