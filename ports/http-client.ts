export interface HttpRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** A JSON body (sets Content-Type). */
  json?: unknown;
  /** A form body (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Who is being called, for error messages ("OpenRouter API error: HTTP 401"). */
  service: string;
  /** Values that must never appear in an error message (tokens, cookies). */
  secrets?: readonly string[];
  /** Statuses returned as responses instead of thrown (e.g. a provider that puts errors in a 4xx body). */
  acceptStatuses?: readonly number[] | "any";
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The URL that was finally requested (after the origin map). */
  url: string;
}

/**
 * The HTTP layer. Non-2xx answers (unless accepted) and transport failures are thrown as
 * QuotabarError with the taxonomy code; the response body is never part of the message.
 */
export interface HttpClient {
  request(request: HttpRequest): Promise<HttpResponse>;
}
