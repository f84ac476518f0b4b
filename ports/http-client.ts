import type { QuotabarError } from "../domain/errors.js";
import type { ExcerptOptions } from "../domain/redact.js";

export interface HttpRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** A JSON body (sets Content-Type). */
  json?: unknown;
  /** A form body (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  /**
   * Accept a self-signed certificate, and only from 127.0.0.1 (a local language server). TLS is
   * verified for every other request, and for this one too when it goes anywhere else.
   */
  selfSignedLoopback?: true;
  /**
   * `"refuse"` on a request to a token endpoint (a refresh, a token mint, a device-flow poll): no
   * redirect is followed, not even on its own origin, and a 3xx answer is an error. Any other
   * request follows a redirect on its origin, and off it only when it carries no secret at all.
   */
  redirect?: "refuse";
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The URL that was finally requested (after the origin map). */
  url: string;
}

/** One request as the transport sends it: who is called (for messages), what to hide, when to give up. */
export interface TransportRequest extends HttpRequest {
  service: string;
  secrets: readonly string[];
  signal?: AbortSignal;
  /** Give up after this long (the caller's budget; the transport has no default of its own). */
  timeoutMs?: number;
}

/**
 * The wire. Every HTTP status comes back as a response; only a request that got no answer
 * (network, TLS, time budget) throws, as a QuotabarError with secrets redacted.
 */
export interface HttpTransport {
  send(request: TransportRequest): Promise<HttpResponse>;
}

/** How a status the caller did not accept becomes an error; `"pass"` answers it as a response. */
export type StatusRule = ((response: HttpResponse, service: string) => QuotabarError) | "pass";
/** Rows that override the status-to-error table for one request: by status, or `4xx` / `5xx`. */
export type StatusRules = Partial<Record<number | "4xx" | "5xx", StatusRule>>;

export interface ProviderRequest extends HttpRequest {
  /** Another name for messages than the provider's ("Kimi Code API"). */
  service?: string;
  /** A shorter budget for a best-effort call; never longer than what is left of the provider's. */
  timeoutMs?: number;
  /** Overrides of the status-to-error table (401, 403, 404, 429, 5xx...). */
  statusRules?: StatusRules;
}

/**
 * The HTTP client a strategy is handed for one fetch: already bound to the provider's cancel
 * signal and time budget, its service name and the secrets to redact. A 2xx (or a status passed by
 * a rule) is a response; any other status throws the error of the status table.
 */
export interface ProviderHttp {
  request(request: ProviderRequest): Promise<HttpResponse>;
  /**
   * What an upstream (or a CLI) said, fit for an error message: this fetch's secrets (whole, in
   * part, in any case) and token shapes redacted first, then on one line, cut to `maxChars` (200).
   * Untrusted text goes into a message through here, never cut by hand first.
   */
  excerpt(text: string, options?: ExcerptOptions): string;
  /** The fetch's cancel signal (for work that is not HTTP, e.g. a child process). */
  readonly signal: AbortSignal;
}
