import { listeningPorts, notConfigured, QuotabarError, type FetchContext, type ProviderHttp } from "../kit/index.js";
import { callAny, endpointsOf, type Endpoint } from "./connect.js";
import { SERVICE, START_APP, type LanguageServer } from "./language-server.js";
import type { AntigravityReading } from "./policy.js";
import { readQuota, type QuotaMethod } from "./quota.js";

/** The CSRF token is checked, lsof finds the server's ports, and the quota is read from the first that answers. */
export async function readAntigravity(server: LanguageServer, { http, processes }: FetchContext): Promise<AntigravityReading> {
  const { csrfToken } = server;
  if (csrfToken === null) throw notConfigured(`${SERVICE} CSRF token not found. Restart Antigravity and retry.`, START_APP);
  const ports = await listeningPorts(processes, server.pid, { service: SERVICE, signal: http.signal });
  return quota(http, await endpointsOf(http, { ...server, csrfToken }, ports));
}

/** GetUserStatus, and GetCommandModelConfigs when it fails for any reason; the fallback's error is the one shown. */
async function quota(http: ProviderHttp, endpoints: readonly Endpoint[]): Promise<AntigravityReading> {
  const methods: QuotaMethod[] = ["GetUserStatus", "GetCommandModelConfigs"];
  let last: unknown = null;
  for (const method of methods) {
    try {
      return readQuota(method, (await callAny(http, endpoints, method)).body, http.excerpt);
    } catch (error) {
      last = error;
    }
  }
  throw last instanceof QuotabarError ? last : new QuotabarError("upstream", String(last));
}
