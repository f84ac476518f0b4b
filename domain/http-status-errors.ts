import type { HttpResponse, StatusRule, StatusRules } from "../ports/http-client.js";
import { QuotabarError } from "./errors.js";
import { advice } from "./remedy.js";
import { header } from "./headers.js";

const apiError = (service: string, status: number) => `${service} API error: HTTP ${status}`;

/** The one status-to-error table; a request overrides it row by row (StatusRules). */
const DEFAULT_RULES: Required<Pick<StatusRules, 401 | 403 | 404 | 429 | "4xx" | "5xx">> = {
  401: (r, service) =>
    new QuotabarError("unauthorized", apiError(service, r.status), {
      status: r.status,
      remedies: [advice("The credential was rejected; check or replace it.")],
    }),
  403: (r, service) =>
    new QuotabarError("forbidden", apiError(service, r.status), {
      status: r.status,
      remedies: [advice("The credential lacks access to this resource.")],
    }),
  404: (r, service) => new QuotabarError("upstream", apiError(service, r.status), { status: r.status }),
  429: (r, service) => {
    const retryAfterSeconds = parseRetryAfter(header(r.headers, "retry-after"), Date.now());
    return new QuotabarError("rate_limited", apiError(service, r.status), {
      status: r.status,
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      remedies: [{ kind: "retry", ...(retryAfterSeconds !== undefined ? { afterSeconds: retryAfterSeconds } : {}) }],
    });
  },
  "5xx": (r, service) =>
    new QuotabarError("upstream", apiError(service, r.status), {
      status: r.status,
      remedies: [advice(`${service} is having trouble.`), { kind: "retry" }],
    }),
  "4xx": (r, service) => new QuotabarError("upstream", apiError(service, r.status), { status: r.status }),
};

/** The rule for a non-2xx status: the request's own row first, then the table. */
export function statusRule(status: number, overrides: StatusRules = {}): StatusRule {
  const group = status >= 500 ? "5xx" : "4xx";
  const own = overrides[status] ?? overrides[group];
  if (own) return own;
  return (DEFAULT_RULES as StatusRules)[status] ?? DEFAULT_RULES[group];
}

/** The table's error for a response (what a provider throws when it read a body first and found nothing better). */
export function statusError(response: HttpResponse, service: string, overrides: StatusRules = {}): QuotabarError | null {
  if (response.status >= 200 && response.status < 300) return null;
  const rule = statusRule(response.status, overrides);
  return rule === "pass" ? null : rule(response, service);
}

/** `Retry-After` as seconds (a number of seconds or an HTTP date). */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.round((at - nowMs) / 1000));
}
