import { advice, listeningPorts, notConfigured, QuotabarError, type FetchStrategy, type ProviderHttp } from "../kit/index.js";
import { callAny, endpointsOf, type Endpoint } from "./connect.js";
import { languageServer, SERVICE, type LanguageServer } from "./language-server.js";
import { antigravitySnapshot, type AntigravityReading } from "./policy.js";
import { readQuota, type QuotaMethod } from "./quota.js";

const START_APP = advice("Start Antigravity (from https://antigravity.google) and sign in, then retry.");

/** The running app's local language server: ps finds it, lsof its ports, Connect calls read the quota. */
export const antigravityLocal: FetchStrategy<LanguageServer, AntigravityReading> = {
  source: "local",
  credentials: languageServer,
  missingCredential: () => notConfigured(`${SERVICE} language server not detected. Launch Antigravity and retry.`, START_APP),
  toSnapshot: antigravitySnapshot,
  async fetch(server, { http, processes }) {
    const { csrfToken } = server;
    if (csrfToken === null) throw notConfigured(`${SERVICE} CSRF token not found. Restart Antigravity and retry.`, START_APP);
    const ports = await listeningPorts(processes, server.pid, { service: SERVICE, signal: http.signal });
    return quota(http, await endpointsOf(http, { ...server, csrfToken }, ports));
  },
};

/** GetUserStatus, and GetCommandModelConfigs when it fails for any reason; the fallback's error is the one shown. */
async function quota(http: ProviderHttp, endpoints: readonly Endpoint[]): Promise<AntigravityReading> {
  const methods: QuotaMethod[] = ["GetUserStatus", "GetCommandModelConfigs"];
  let last: unknown = null;
  for (const method of methods) {
    try {
      return readQuota(method, (await callAny(http, endpoints, method)).body);
    } catch (error) {
      last = error;
    }
  }
  throw last instanceof QuotabarError ? last : new QuotabarError("upstream", String(last));
}
