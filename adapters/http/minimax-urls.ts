import {
  MINIMAX_API_HOSTS,
  MINIMAX_CODING_PLAN_PATH,
  MINIMAX_REMAINS_PATH,
  MINIMAX_SPEC_REMAINS_PATH,
  MINIMAX_WEB_HOSTS,
  type MiniMaxRegion,
} from "../../domain/providers/minimax.js";
import type { FetchContext } from "../../ports/fetch-context.js";
import { cleanSecret } from "./api-key-credential.js";
import { overrideUrl } from "./base-url.js";

/** `global` unless the entry says China (`cn`, `china`, `minimaxi`). */
export function minimaxRegion(region: unknown): MiniMaxRegion {
  const value = typeof region === "string" ? region.trim().toLowerCase() : "";
  return ["cn", "china", "china-mainland", "mainland", "minimaxi"].includes(value) ? "cn" : "global";
}

/** MINIMAX_HOST as a URL (scheme optional, https enforced), or null. */
function hostOverride(context: FetchContext): URL | null {
  const host = cleanSecret(context.env.MINIMAX_HOST);
  return host ? overrideUrl(host, "MINIMAX_HOST") : null;
}

/** The API region: MINIMAX_HOST naming a China host (minimaxi.com) selects China, else the config `region`. */
export function minimaxApiRegion(context: FetchContext): MiniMaxRegion {
  const host = hostOverride(context)?.hostname;
  if (host) return host === "minimaxi.com" || host.endsWith(".minimaxi.com") ? "cn" : "global";
  return minimaxRegion(context.entry.region);
}

/** The remains URLs an API token tries, in order; a full MINIMAX_REMAINS_URL replaces them all. */
export function minimaxApiRemainsUrls(context: FetchContext, region: MiniMaxRegion): string[] {
  const full = cleanSecret(context.env.MINIMAX_REMAINS_URL);
  if (full) return [overrideUrl(full, "MINIMAX_REMAINS_URL").toString()];
  const host = MINIMAX_API_HOSTS[region];
  return [`${host}${MINIMAX_REMAINS_PATH}`, `${host}${MINIMAX_SPEC_REMAINS_PATH}`];
}

/** True when the user pinned the endpoint, so no other host or path may be tried. */
export const minimaxEndpointPinned = (context: FetchContext) => cleanSecret(context.env.MINIMAX_REMAINS_URL) !== null;

/** The web host: MINIMAX_HOST (any path in it dropped), else the region's platform host. */
export function minimaxWebHost(context: FetchContext): string {
  const host = hostOverride(context);
  return host ? host.origin : MINIMAX_WEB_HOSTS[minimaxRegion(context.entry.region)];
}

/** Precedence everywhere: full URL override, then host override, then region. */
export function minimaxCodingPlanUrl(context: FetchContext): string {
  const full = cleanSecret(context.env.MINIMAX_CODING_PLAN_URL);
  if (full) return overrideUrl(full, "MINIMAX_CODING_PLAN_URL").toString();
  return `${minimaxWebHost(context)}${MINIMAX_CODING_PLAN_PATH}?cycle_type=3`;
}

export function minimaxWebRemainsUrl(context: FetchContext, groupId: string | null): string {
  const full = cleanSecret(context.env.MINIMAX_REMAINS_URL);
  const url = full ? overrideUrl(full, "MINIMAX_REMAINS_URL") : new URL(`${minimaxWebHost(context)}${MINIMAX_REMAINS_PATH}`);
  if (groupId) url.searchParams.set("GroupId", groupId);
  return url.toString();
}

/** The referer the web app sends: the coding-plan page without its query. */
export function minimaxReferer(context: FetchContext): string {
  const page = new URL(minimaxCodingPlanUrl(context));
  return `${page.origin}${page.pathname}`;
}
