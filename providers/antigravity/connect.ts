import { advice, QuotabarError, type HttpResponse, type ProviderHttp } from "../kit/index.js";
import { SERVICE, type LanguageServer } from "./language-server.js";

/** One place to call the language server: a scheme and port on 127.0.0.1, and the CSRF token it expects. */
export interface Endpoint {
  scheme: "https" | "http";
  port: number;
  csrfToken: string;
}

export type ConnectMethod = "GetUnleashData" | "GetUserStatus" | "GetCommandModelConfigs";

const SERVICE_PATH = "/exa.language_server_pb.LanguageServerService/";
const STEP_TIMEOUT_MS = 8_000;

/** The probe's body: the context the Antigravity extension sends. */
export const UNLEASH_BODY = {
  context: {
    properties: {
      devMode: "false",
      extensionVersion: "unknown",
      hasAnthropicModelAccess: "true",
      ide: "antigravity",
      ideVersion: "unknown",
      installationId: "quotabar",
      language: "UNSPECIFIED",
      os: "macos",
      requestedModelId: "MODEL_UNSPECIFIED",
    },
  },
};

/** The quota calls' body. */
export const METADATA_BODY = { metadata: { ideName: "antigravity", extensionName: "antigravity", ideVersion: "unknown", locale: "en" } };

const RESTART = advice("Restart Antigravity and retry.");

/** A Connect unary JSON call; only HTTP 200 is an answer. The self-signed certificate is accepted for 127.0.0.1 only. */
export async function connectCall(http: ProviderHttp, endpoint: Endpoint, method: ConnectMethod, body: unknown): Promise<HttpResponse> {
  const response = await http.request({
    url: `${endpoint.scheme}://127.0.0.1:${endpoint.port}${SERVICE_PATH}${method}`,
    method: "POST",
    headers: { "Content-Type": "application/json", "Connect-Protocol-Version": "1", "X-Codeium-Csrf-Token": endpoint.csrfToken },
    json: body,
    timeoutMs: STEP_TIMEOUT_MS,
    statusRules: { "4xx": "pass", "5xx": "pass" },
    ...(endpoint.scheme === "https" ? { selfSignedLoopback: true as const } : {}),
  });
  if (response.status === 200) return response;
  if (response.status === 401 || response.status === 403) throw sessionExpired(response.status);
  throw new QuotabarError("upstream", `${SERVICE} ${method}: HTTP ${response.status}: ${http.excerpt(response.body) || "empty body"}`, {
    status: response.status,
    remedies: [RESTART],
  });
}

/**
 * Where to ask, in order: the first listening port that answers the HTTPS probe, then plain http
 * on the extension server port (the spec's fallback when HTTPS fails).
 */
export async function endpointsOf(
  http: ProviderHttp,
  server: LanguageServer & { csrfToken: string },
  ports: readonly number[],
): Promise<Endpoint[]> {
  const endpoints: Endpoint[] = [];
  let probeError: unknown = null;
  for (const port of ports) {
    const endpoint: Endpoint = { scheme: "https", port, csrfToken: server.csrfToken };
    try {
      await connectCall(http, endpoint, "GetUnleashData", UNLEASH_BODY);
      endpoints.push(endpoint);
      break;
    } catch (error) {
      probeError = error;
    }
  }
  const fallback = server.extensionServerPort;
  if (fallback !== null && fallback !== endpoints[0]?.port) {
    endpoints.push({ scheme: "http", port: fallback, csrfToken: server.extensionCsrfToken ?? server.csrfToken });
  }
  if (endpoints.length > 0) return endpoints;
  if (ports.length === 0) {
    throw new QuotabarError("upstream", `${SERVICE} is running but not exposing ports yet.`, {
      remedies: [{ kind: "retry", afterSeconds: 5 }],
    });
  }
  throw new QuotabarError(
    "network",
    `${SERVICE} port detection failed: no working API port found (${probeError instanceof Error ? probeError.message : "no answer"}).`,
    {
      remedies: [RESTART],
    },
  );
}

/** The same call on each endpoint in turn; the last failure is the one reported. */
export async function callAny(http: ProviderHttp, endpoints: readonly Endpoint[], method: ConnectMethod): Promise<HttpResponse> {
  let last: unknown = null;
  for (const endpoint of endpoints) {
    try {
      return await connectCall(http, endpoint, method, METADATA_BODY);
    } catch (error) {
      last = error;
    }
  }
  throw last;
}

export function sessionExpired(status?: number): QuotabarError {
  return new QuotabarError("expired", `${SERVICE} session expired. Restart Antigravity and retry.`, {
    ...(status === undefined ? {} : { status }),
    remedies: [advice("Restart Antigravity and sign in again.")],
  });
}
