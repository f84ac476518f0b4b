import { isLoopback } from "../../domain/loopback.js";
import { CREDENTIAL_NAME } from "../../domain/redact.js";
import type { TransportRequest } from "../../ports/http-client.js";

/** A redirect the transport refuses to follow, and why. */
export class RefusedRedirect extends Error {
  override name = "RefusedRedirect";
}

/** Values are looked into this deep in a JSON body; deeper is taken to carry a secret. */
const MAX_BODY_DEPTH = 8;

/**
 * The one redirect rule: a redirect is followed only when nothing could leak by it.
 * - never to plain http (loopback aside): whatever the request carries would travel in clear;
 * - never for a request to a token endpoint (`redirect: "refuse"`): its body is a refresh token,
 *   a client secret or a device code, and a 307/308 (or a 301/302 keeping the method) resends it;
 * - never off the request's origin (scheme, host and port) when the request carries a secret
 *   anywhere: a header named for a credential or holding a known secret, its body, its query.
 */
export function refuseLeakingRedirect(from: URL, to: URL, request: TransportRequest): void {
  if (to.protocol !== "https:" && !(to.protocol === "http:" && isLoopback(to))) {
    throw new RefusedRedirect(`refused a redirect from ${from.host} to plain ${to.protocol.replace(":", "")} at ${to.host}`);
  }
  if (request.redirect === "refuse") throw tokenRedirect(from, to);
  if (to.origin !== from.origin && carriesSecret(request)) {
    throw new RefusedRedirect(`refused to send credentials on a redirect from ${from.origin} to ${to.origin}`);
  }
}

/** A token endpoint answered with a redirect: it is not followed, wherever it points. */
export function tokenRedirect(from: URL, to: URL | null): RefusedRedirect {
  const target = to === null ? "" : ` to ${to.origin === from.origin ? to.pathname : to.origin}`;
  return new RefusedRedirect(`refused a redirect from ${from.origin}${target}: a token request never follows one`);
}

/** Whether a request carries a credential or a known secret in a header, its body or its URL. */
export function carriesSecret(request: TransportRequest): boolean {
  const secrets = request.secrets.filter((secret) => secret.length >= 4);
  const holds = (text: string) => secrets.some((secret) => text.includes(secret));
  const headers = Object.entries(request.headers ?? {});
  if (headers.some(([name, value]) => CREDENTIAL_NAME.test(name) || holds(value))) return true;
  const url = safeUrl(request.url);
  if (url === null || holds(request.url) || [...url.searchParams].some(([name, value]) => CREDENTIAL_NAME.test(name) || holds(value)))
    return true;
  if (request.form !== undefined && Object.entries(request.form).some(([name, value]) => CREDENTIAL_NAME.test(name) || holds(value)))
    return true;
  return request.json !== undefined && jsonCarries(request.json, holds, 0);
}

/** A JSON body's field names and string values (numbers too, as text), walked to a bounded depth. */
function jsonCarries(value: unknown, holds: (text: string) => boolean, depth: number): boolean {
  if (typeof value === "string") return holds(value);
  if (typeof value === "number" || typeof value === "bigint") return holds(String(value));
  if (value === null || typeof value !== "object") return false;
  if (depth >= MAX_BODY_DEPTH) return true;
  if (Array.isArray(value)) return value.some((item) => jsonCarries(item, holds, depth + 1));
  return Object.entries(value).some(([name, item]) => CREDENTIAL_NAME.test(name) || holds(name) || jsonCarries(item, holds, depth + 1));
}

function safeUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
