import { notConfigured, type Remedy } from "../kit/index.js";

/** Where sign-in (web) and usage (api) go: github.com, or a GitHub Enterprise host. */
export interface GitHubOrigins {
  web: string;
  api: string;
  /** The enterprise host name, null for github.com. */
  enterpriseHost: string | null;
}

export const GITHUB_ORIGINS: GitHubOrigins = { web: "https://github.com", api: "https://api.github.com", enterpriseHost: null };

const EXAMPLE = "octocorp.ghe.com";
const setHost: Remedy = { kind: "set-config", provider: "copilot", field: "enterpriseHost", example: EXAMPLE };
// DNS labels joined by dots, at least two labels: a host name, never a path, port, user or IP literal
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/**
 * The copilot entry's `enterpriseHost` (e.g. `octocorp.ghe.com`, `https://` allowed in front) as
 * origins: the device flow at `https://<host>/login/...`, usage at `https://api.<host>/...`.
 * Anything but a bare host name over https fails before a token is sent anywhere.
 */
export function githubOrigins(entry: { readonly [field: string]: unknown } | undefined): GitHubOrigins {
  const raw = entry?.enterpriseHost;
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) return GITHUB_ORIGINS;
  if (typeof raw !== "string") throw invalid("is not text");
  const text = raw.trim().toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//.exec(text);
  if (scheme && scheme[1] !== "https") throw invalid("must use https");
  const host = (scheme ? text.slice(scheme[0].length) : text).replace(/\/$/, "");
  if (/[/?#@:]/.test(host)) throw invalid("must be a bare host name (no path, port or user)");
  if (!HOST_NAME.test(host)) throw invalid("is not a host name");
  if (host === "github.com" || host === "api.github.com") return GITHUB_ORIGINS;
  if (host.startsWith("api.")) throw invalid(`is the API host; give the web host (${host.slice(4)})`);
  return { web: `https://${host}`, api: `https://api.${host}`, enterpriseHost: host };
}

function invalid(why: string) {
  return notConfigured(`The GitHub Enterprise host (enterpriseHost) ${why}`, setHost);
}
