import { advice, cleanSecret, notConfigured, overrideUrl, type HttpResponse, type ProviderHttp, type QuotabarError } from "../kit/index.js";
import type { Environment } from "../../ports/environment.js";
import { deniedByCodeApi, invalidRequest } from "./errors.js";
import { codeApiUsage, type KimiUsage } from "./usage-body.js";

const DEFAULT_BASE = "https://api.kimi.com";
const BASE_ENV = "KIMI_CODE_BASE_URL";

/**
 * The usage endpoint under a base URL: `<base>/coding/v1/usages`, or `v1/usages` under a base that
 * already ends in `/coding`, or `usages` under one that ends in `/coding/v1`.
 */
export function codeApiUsagesUrl(base: URL): string {
  const url = new URL(base.href);
  const segments = url.pathname.split("/").filter((segment) => segment !== "");
  const rest =
    segments.slice(-2).join("/") === "coding/v1"
      ? ["usages"]
      : segments.at(-1) === "coding"
        ? ["v1", "usages"]
        : ["coding", "v1", "usages"];
  url.pathname = `/${[...segments, ...rest].join("/")}`;
  return url.href;
}

/** The endpoint, from KIMI_CODE_BASE_URL when set (https, or http on loopback; no user info). */
export function codeApiUrl(env: Environment): string {
  const override = cleanSecret(env[BASE_ENV]);
  if (override === null) return codeApiUsagesUrl(new URL(DEFAULT_BASE));
  const base = overrideUrl(override, BASE_ENV);
  if (base.username || base.password) {
    throw notConfigured(
      `${BASE_ENV} must not carry a user name or password`,
      advice("Give the base URL override as https://host/path, without credentials, or remove it."),
    );
  }
  return codeApiUsagesUrl(base);
}

/** GET the Kimi Code usage with a bearer (an API key or the CLI's access token). */
export async function readCodeApiUsage(
  http: ProviderHttp,
  env: Environment,
  bearer: { token: string; headers?: Record<string, string>; rejected: (response: HttpResponse) => QuotabarError },
): Promise<KimiUsage> {
  const response = await http.request({
    url: codeApiUrl(env),
    headers: { ...bearer.headers, Authorization: `Bearer ${bearer.token}`, Accept: "application/json" },
    statusRules: { 400: invalidRequest, 401: bearer.rejected, 403: deniedByCodeApi },
  });
  return codeApiUsage(response.body);
}
