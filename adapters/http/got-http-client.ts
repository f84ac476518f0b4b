import got, { HTTPError, RequestError } from "got";
import { QuotabarError } from "../../domain/errors.js";
import { redact } from "../../domain/redact.js";
import { USER_AGENT } from "../../domain/version.js";
import type { HttpClient, HttpRequest, HttpResponse } from "../../ports/http-client.js";
import { mapUrl, type OriginMap } from "./origin-map.js";

const DEFAULT_TIMEOUT_MS = 15_000;
const RETRY_DELAY_MS = 200;

/**
 * The HTTP layer on got: per-request timeout, one retry for idempotent requests on network errors
 * or 5xx, the origin map as a beforeRequest hook, and failures mapped to the error taxonomy with
 * secrets redacted. TLS is verified (got's default); nothing here turns that off.
 */
export class GotHttpClient implements HttpClient {
  private readonly client: typeof got;

  constructor(originMap: OriginMap) {
    this.client = got.extend({
      headers: { "user-agent": USER_AGENT },
      retry: {
        limit: 1,
        methods: ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"],
        statusCodes: [500, 502, 503, 504],
        errorCodes: ["ECONNRESET", "ECONNREFUSED", "EPIPE", "EAI_AGAIN", "ENETUNREACH"],
        calculateDelay: ({ computedValue }) => (computedValue === 0 ? 0 : RETRY_DELAY_MS),
      },
      hooks: {
        beforeRequest: [
          (options) => {
            if (originMap.size > 0 && options.url) options.url = mapUrl(new URL(options.url.toString()), originMap);
          },
        ],
      },
    });
  }

  async request(request: HttpRequest): Promise<HttpResponse> {
    const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    try {
      const response = await this.client(request.url, {
        method: request.method ?? "GET",
        headers: lowerCaseKeys(request.headers ?? {}),
        ...(request.json !== undefined ? { json: request.json } : {}),
        ...(request.form !== undefined ? { form: request.form } : {}),
        timeout: { request: timeoutMs },
        ...(request.signal ? { signal: request.signal } : {}),
        responseType: "text",
      });
      return toResponse(response);
    } catch (error) {
      if (error instanceof HTTPError && accepts(request, error.response.statusCode)) {
        return toResponse(error.response);
      }
      throw toQuotabarError(error, request, timeoutMs);
    }
  }
}

function toResponse(response: { statusCode: number; headers: HttpResponse["headers"]; body: unknown; url: string }): HttpResponse {
  return { status: response.statusCode, headers: response.headers, body: String(response.body ?? ""), url: response.url };
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** got's errors to the taxonomy. The response body is never part of the message. */
export function toQuotabarError(error: unknown, request: HttpRequest, timeoutMs: number): QuotabarError {
  const service = request.service;
  const clean = (text: string) => redact(text, request.secrets ?? []);
  if (error instanceof HTTPError) {
    const status = error.response.statusCode;
    const message = `${service} API error: HTTP ${status}`;
    if (status === 401)
      return new QuotabarError("unauthorized", message, { status, hint: "The credential was rejected; check or replace it." });
    if (status === 403) return new QuotabarError("forbidden", message, { status, hint: "The credential lacks access to this resource." });
    if (status === 429) {
      const retryAfterSeconds = parseRetryAfter(error.response.headers["retry-after"]);
      return new QuotabarError("rate_limited", message, {
        status,
        ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
        hint: retryAfterSeconds !== undefined ? `Rate limited; retry in ${retryAfterSeconds} s.` : "Rate limited; retry in a minute.",
      });
    }
    if (status >= 500) return new QuotabarError("upstream", message, { status, hint: `${service} is having trouble; retry later.` });
    return new QuotabarError("upstream", message, { status });
  }
  if (error instanceof RequestError) {
    // The host really contacted (after the origin map), which is what a user can check.
    const host = safeHost(error.options?.url?.toString() ?? request.url);
    if (error.name === "TimeoutError" || error.code === "ETIMEDOUT") {
      return new QuotabarError("timeout", `${service} did not answer within ${timeoutMs / 1000} s`, {
        hint: "The service may be slow or unreachable; try again, or raise --timeout.",
      });
    }
    if (error.name === "AbortError" || error.code === "ERR_ABORTED") {
      return new QuotabarError("timeout", `${service} request was cancelled`, { hint: "The provider's time budget ran out." });
    }
    if (error.code === "ENOTFOUND" || error.code === "EAI_AGAIN") {
      return new QuotabarError("network", `${service} network error: cannot resolve ${host}`, {
        hint: "Check your internet connection, DNS or proxy.",
      });
    }
    if (error.code === "ECONNREFUSED") {
      return new QuotabarError("network", `${service} network error: connection to ${host} was refused`, {
        hint: "Check your internet connection or proxy.",
      });
    }
    if (error.code?.startsWith("ERR_TLS") || /certificate|self[- ]signed/i.test(error.message)) {
      return new QuotabarError("network", `${service} network error: TLS certificate check failed for ${host}: ${clean(error.message)}`, {
        hint: "A proxy or captive portal may be intercepting HTTPS.",
      });
    }
    return new QuotabarError("network", `${service} network error talking to ${host}: ${clean(error.message)}`, {
      hint: "Check your internet connection or proxy.",
    });
  }
  return new QuotabarError("upstream", clean(error instanceof Error ? error.message : String(error)));
}

function parseRetryAfter(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim());
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.round((at - Date.now()) / 1000));
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the server";
  }
}

function accepts(request: HttpRequest, status: number): boolean {
  return request.acceptStatuses === "any" || (request.acceptStatuses?.includes(status) ?? false);
}
