import { isLoopback } from "../../domain/loopback.js";
import { trimTrailingSlashes } from "../../domain/url-text.js";

/**
 * QUOTABAR_ORIGIN_MAP (contract section 5): a JSON object from a real origin to a replacement
 * base URL. Requests to a mapped origin go to the replacement, path and query appended after its
 * path prefix. Plain http is allowed only for loopback replacements, so a token never crosses a
 * network unencrypted.
 */
export type OriginMap = ReadonlyMap<string, URL>;

export class OriginMapError extends Error {
  override name = "OriginMapError";
}

export function parseOriginMap(text: string | undefined): OriginMap {
  const map = new Map<string, URL>();
  if (text === undefined || text.trim() === "") return map;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new OriginMapError(`QUOTABAR_ORIGIN_MAP is not valid JSON: ${(error as Error).message}`);
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new OriginMapError('QUOTABAR_ORIGIN_MAP must be a JSON object like {"https://api.github.com": "http://127.0.0.1:9000/gh"}');
  }
  for (const [origin, replacement] of Object.entries(raw)) {
    let from: URL;
    let to: URL;
    try {
      from = new URL(origin);
      to = new URL(String(replacement));
    } catch {
      throw new OriginMapError(`QUOTABAR_ORIGIN_MAP entry ${JSON.stringify(origin)} is not a pair of absolute URLs`);
    }
    if (to.protocol === "http:" && !isLoopback(to)) {
      throw new OriginMapError(`QUOTABAR_ORIGIN_MAP may point ${origin} at plain http only on loopback, not ${to.host}`);
    }
    if (to.protocol !== "http:" && to.protocol !== "https:") {
      throw new OriginMapError(`QUOTABAR_ORIGIN_MAP replacement for ${origin} must be http(s)`);
    }
    map.set(from.origin, to);
  }
  return map;
}

/** The URL a request really goes to. */
export function mapUrl(url: URL, map: OriginMap): URL {
  const replacement = map.get(url.origin);
  if (!replacement) return url;
  const prefix = trimTrailingSlashes(replacement.pathname);
  return new URL(`${replacement.origin}${prefix}${url.pathname}${url.search}`);
}
