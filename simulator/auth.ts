import type { SimRequest } from "../ports/simulated-upstream.js";

/** The bearer token of a request, when its Authorization header has the `Bearer <token>` form. */
export function bearer(request: SimRequest): string | null {
  const match = /^Bearer (\S+)$/.exec(String(request.headers.authorization ?? ""));
  return match ? (match[1] as string) : null;
}
