import { cleanSecret, overrideUrl, type CredentialContext } from "../kit/index.js";

export type MiniMaxRegion = "global" | "cn";

const API_HOSTS: Record<MiniMaxRegion, string> = { global: "https://api.minimax.io", cn: "https://api.minimaxi.com" };
const WEB_HOSTS: Record<MiniMaxRegion, string> = { global: "https://platform.minimax.io", cn: "https://platform.minimaxi.com" };
/** Where today's service answers API tokens (the weekly twins live here). */
const TOKEN_PLAN_PATH = "/v1/token_plan/remains";
/** The earlier path, for API tokens and web sessions alike; tried when the one before answers 404. */
const REMAINS_PATH = "/v1/api/openplatform/coding_plan/remains";
/** The documented path for API tokens; the last one tried. */
const SPEC_REMAINS_PATH = "/v1/coding_plan/remains";
const CODING_PLAN_PATH = "/user-center/payment/coding-plan";

/** `global` unless the entry says China (`cn`, `china`, `minimaxi`). */
export function minimaxRegion(region: unknown): MiniMaxRegion {
  const value = typeof region === "string" ? region.trim().toLowerCase() : "";
  return ["cn", "china", "china-mainland", "mainland", "minimaxi"].includes(value) ? "cn" : "global";
}

/** A full-URL override from the environment (https enforced), or null. */
function urlFromEnv(context: CredentialContext, variable: string): URL | null {
  const value = cleanSecret(context.env[variable]);
  return value ? overrideUrl(value, variable) : null;
}

/** The API region: MINIMAX_HOST naming a China host (minimaxi.com) selects China, else the config `region`. */
export function minimaxApiRegion(context: CredentialContext): MiniMaxRegion {
  const host = urlFromEnv(context, "MINIMAX_HOST")?.hostname;
  if (host) return host === "minimaxi.com" || host.endsWith(".minimaxi.com") ? "cn" : "global";
  return minimaxRegion(context.entry.region);
}

/** The remains URLs an API token tries, in order; a full MINIMAX_REMAINS_URL replaces them all. */
export function minimaxApiRemainsUrls(context: CredentialContext, region: MiniMaxRegion): string[] {
  const full = urlFromEnv(context, "MINIMAX_REMAINS_URL");
  if (full) return [full.toString()];
  const host = API_HOSTS[region];
  return [TOKEN_PLAN_PATH, REMAINS_PATH, SPEC_REMAINS_PATH].map((path) => `${host}${path}`);
}

/** True when the user pinned the endpoint, so no other host or path may be tried. */
export const minimaxEndpointPinned = (context: CredentialContext) => cleanSecret(context.env.MINIMAX_REMAINS_URL) !== null;

/** The web host: MINIMAX_HOST (any path in it dropped), else the region's platform host. */
function minimaxWebHost(context: CredentialContext): string {
  return urlFromEnv(context, "MINIMAX_HOST")?.origin ?? WEB_HOSTS[minimaxRegion(context.entry.region)];
}

/** Precedence everywhere: full URL override, then host override, then region. */
export function minimaxCodingPlanUrl(context: CredentialContext): string {
  const full = urlFromEnv(context, "MINIMAX_CODING_PLAN_URL");
  return full ? full.toString() : `${minimaxWebHost(context)}${CODING_PLAN_PATH}?cycle_type=3`;
}

export function minimaxWebRemainsUrl(context: CredentialContext, groupId: string | null): string {
  const url = urlFromEnv(context, "MINIMAX_REMAINS_URL") ?? new URL(`${minimaxWebHost(context)}${REMAINS_PATH}`);
  if (groupId) url.searchParams.set("GroupId", groupId);
  return url.toString();
}

/** The referer the web app sends: the coding-plan page without its query. */
export function minimaxReferer(context: CredentialContext): string {
  const page = new URL(minimaxCodingPlanUrl(context));
  return `${page.origin}${page.pathname}`;
}
