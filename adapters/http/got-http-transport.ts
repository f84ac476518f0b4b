import got, { RequestError } from "got";
import { budgetExceeded, QuotabarError } from "../../domain/errors.js";
import { redact } from "../../domain/redact.js";
import { advice } from "../../domain/remedy.js";
import { USER_AGENT } from "../../domain/version.js";
import type { HttpResponse, HttpTransport, TransportRequest } from "../../ports/http-client.js";
import { mapUrl, type OriginMap } from "./origin-map.js";
import { RefusedRedirect, refuseLeakingRedirect, tokenRedirect } from "./redirect-guard.js";

const RETRY_DELAY_MS = 200;
/** Quota answers are small; a bigger (or decompression-bomb) body is cut off here. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The wire on got: one retry for idempotent requests on network errors or 5xx, the origin map as a
 * beforeRequest hook, every HTTP status answered as a response, and requests that got no answer
 * mapped to the error taxonomy with secrets redacted. TLS is verified (got's default); nothing here
 * turns that off. The time limit is the caller's (the provider's budget); there is no default here.
 */
export class GotHttpTransport implements HttpTransport {
  private readonly client: typeof got;

  constructor(originMap: OriginMap) {
    this.client = got.extend({
      headers: { "user-agent": USER_AGENT },
      throwHttpErrors: false,
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

  async send(request: TransportRequest): Promise<HttpResponse> {
    let tooLarge = false;
    try {
      const pending = this.client(request.url, {
        method: request.method ?? "GET",
        headers: lowerCaseKeys(request.headers ?? {}),
        ...(request.json !== undefined ? { json: request.json } : {}),
        ...(request.form !== undefined ? { form: request.form } : {}),
        ...(request.timeoutMs !== undefined ? { timeout: { request: request.timeoutMs } } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
        ...(request.selfSignedLoopback ? { https: { rejectUnauthorized: false } } : {}),
        // a token request never follows a redirect: got is not even asked to
        ...(request.redirect === "refuse" ? { followRedirect: false } : {}),
        hooks: {
          beforeRequest: request.selfSignedLoopback ? [onlyLoopback] : [],
          // got drops Authorization and Cookie on a cross-host hop, but not a body or another header: the hop itself is refused
          beforeRedirect: [(options, response) => refuseLeakingRedirect(new URL(response.url), new URL(String(options.url)), request)],
        },
        responseType: "text",
      });
      pending.on("downloadProgress", ({ transferred }) => {
        if (transferred > MAX_BODY_BYTES && !tooLarge) {
          tooLarge = true;
          pending.cancel();
        }
      });
      const response = await pending;
      if (request.redirect === "refuse" && response.statusCode >= 300 && response.statusCode < 400) {
        throw tokenRedirect(new URL(response.url), locationOf(response.headers.location, response.url));
      }
      return { status: response.statusCode, headers: response.headers, body: String(response.body ?? ""), url: response.url };
    } catch (error) {
      if (tooLarge) {
        throw new QuotabarError(
          "upstream",
          `${request.service} sent a response too large to read (over ${MAX_BODY_BYTES / 1024 / 1024} MB)`,
          {
            remedies: [advice("A proxy or a fault upstream may be answering instead of the service.")],
          },
        );
      }
      throw transportError(error, request);
    }
  }
}

/** Where a 3xx points, when it says so in a form a URL can be made of. */
function locationOf(location: string | undefined, base: string): URL | null {
  try {
    return location ? new URL(location, base) : null;
  } catch {
    return null;
  }
}

/** The one request allowed to skip certificate checks must really be going to 127.0.0.1 (after the origin map). */
function onlyLoopback(options: { url?: URL | string | undefined; https: { rejectUnauthorized?: boolean | undefined } }): void {
  if (new URL(String(options.url)).hostname !== "127.0.0.1") options.https.rejectUnauthorized = true;
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** A request that got no answer, in the taxonomy. */
export function transportError(error: unknown, request: TransportRequest): QuotabarError {
  const service = request.service;
  const clean = (text: string) => redact(text, request.secrets);
  const refused =
    error instanceof RefusedRedirect
      ? error
      : error instanceof RequestError && error.cause instanceof RefusedRedirect
        ? error.cause
        : error instanceof RequestError && error.name === "RefusedRedirect"
          ? error
          : null;
  if (refused) {
    return new QuotabarError("network", `${service} network error: ${refused.message}`, {
      remedies: [advice("A proxy, captive portal or misconfigured gateway is redirecting the request; credentials were not sent.")],
    });
  }
  if (!(error instanceof RequestError)) return new QuotabarError("upstream", clean(error instanceof Error ? error.message : String(error)));
  // The host really contacted (after the origin map), which is what a user can check.
  const host = safeHost(error.options?.url?.toString() ?? request.url);
  if (error.name === "TimeoutError" || error.code === "ETIMEDOUT" || error.name === "AbortError" || error.code === "ERR_ABORTED") {
    return budgetExceeded(service, request.timeoutMs ?? 0);
  }
  const network = (message: string, text: string) =>
    new QuotabarError("network", `${service} network error: ${message}`, { remedies: [advice(text)] });
  if (error.code === "ENOTFOUND" || error.code === "EAI_AGAIN")
    return network(`cannot resolve ${host}`, "Check your internet connection, DNS or proxy.");
  if (error.code === "ECONNREFUSED") return network(`connection to ${host} was refused`, "Check your internet connection or proxy.");
  if (error.code?.startsWith("ERR_TLS") || /certificate|self[- ]signed/i.test(error.message)) {
    return network(
      `TLS certificate check failed for ${host}: ${clean(error.message)}`,
      "A proxy or captive portal may be intercepting HTTPS.",
    );
  }
  return new QuotabarError("network", `${service} network error talking to ${host}: ${clean(error.message)}`, {
    remedies: [advice("Check your internet connection or proxy.")],
  });
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the server";
  }
}
