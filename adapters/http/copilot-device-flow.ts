import { setTimeout as delay } from "node:timers/promises";
import { z } from "zod";
import { QuotabarError } from "../../domain/errors.js";
import type { Clock } from "../../ports/clock.js";
import type { DeviceCode, DeviceFlow, DeviceFlowPollOptions } from "../../ports/device-flow.js";
import type { HttpClient, HttpResponse } from "../../ports/http-client.js";
import { decodeJson, looseNumber } from "./decode.js";

/** The VS Code Copilot OAuth app, as the real client uses it (reference 5.2). */
export const COPILOT_CLIENT_ID = "Iv1.b507a08c87ecfe98";
export const COPILOT_SCOPE = "read:user";
export const GITHUB_DEVICE_CODE_URL = "https://github.com/login/device/code";
export const GITHUB_ACCESS_TOKEN_URL = "https://github.com/login/oauth/access_token";
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const SERVICE = "GitHub login";

export const DEVICE_CODE_EXPIRED_MESSAGE = "The device code expired before it was authorized (codes last about 15 minutes)";
export const DEVICE_CODE_EXPIRED_HINT = "The code expired; run the login again to get a new code.";
export const ACCESS_DENIED_MESSAGE = "Login failed: you denied access on GitHub";

const DEFAULT_INTERVAL_SECONDS = 5;
const DEFAULT_EXPIRES_SECONDS = 900;
/** RFC 8628: after slow_down, wait 5 s more for this and every later request. */
const SLOW_DOWN_STEP_SECONDS = 5;
/** Polls that fail in transit (network, timeout) in a row before the login gives up. */
const MAX_TRANSPORT_FAILURES = 3;

/** Wait `ms`, rejecting with an AbortError when the signal fires. Injected so tests need not wait. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, signal ? { signal } : undefined);
};

export interface CopilotDeviceFlowOptions {
  http: HttpClient;
  clock?: Clock;
  sleep?: Sleep;
  /** Budget of each single request (not of the whole login). */
  requestTimeoutMs?: number;
}

const DeviceCodeResponse = z.object({
  device_code: z.string().min(1),
  user_code: z.string().min(1),
  verification_uri: z.string().min(1),
  expires_in: looseNumber.nullish(),
  interval: looseNumber.nullish(),
});

/**
 * GitHub's OAuth device flow (spec 3.1) through the HttpClient, so QUOTABAR_ORIGIN_MAP applies.
 * The device code and the token are secrets: they are passed as `secrets` on every request and
 * never put in an error message.
 */
export class CopilotDeviceFlow implements DeviceFlow {
  private readonly http: HttpClient;
  private readonly now: () => Date;
  private readonly sleep: Sleep;
  private readonly requestTimeoutMs: number;

  constructor(options: CopilotDeviceFlowOptions) {
    this.http = options.http;
    const clock = options.clock;
    this.now = clock ? () => clock.now() : () => new Date();
    this.sleep = options.sleep ?? realSleep;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
  }

  async start(signal?: AbortSignal): Promise<DeviceCode> {
    const response = await this.post(GITHUB_DEVICE_CODE_URL, { client_id: COPILOT_CLIENT_ID, scope: COPILOT_SCOPE }, [], signal);
    if (response.status !== 200) {
      const error = oauthError(response.body);
      throw new QuotabarError("upstream", `GitHub refused the device code request (HTTP ${response.status}${error ? `: ${error}` : ""})`, {
        status: response.status,
        hint: "Retry in a minute; if it keeps failing, GitHub may have changed the device flow (https://www.githubstatus.com).",
      });
    }
    const body = decodeJson(response.body, DeviceCodeResponse, SERVICE);
    const expiresIn = body.expires_in && body.expires_in > 0 ? body.expires_in : DEFAULT_EXPIRES_SECONDS;
    return {
      deviceCode: body.device_code,
      userCode: body.user_code,
      verificationUri: body.verification_uri,
      expiresAt: new Date(this.now().getTime() + expiresIn * 1000),
      intervalSeconds: intervalOrDefault(body.interval, DEFAULT_INTERVAL_SECONDS),
    };
  }

  async poll(code: DeviceCode, options: DeviceFlowPollOptions = {}): Promise<string> {
    const { signal } = options;
    let interval = intervalOrDefault(code.intervalSeconds, DEFAULT_INTERVAL_SECONDS);
    let transportFailures = 0;
    for (;;) {
      if (this.now().getTime() >= code.expiresAt.getTime()) throw expired();
      // Wait before every request, the first one included (GitHub counts polls from the code's issue).
      await this.sleep(interval * 1000, signal);
      let response: HttpResponse;
      try {
        response = await this.post(
          GITHUB_ACCESS_TOKEN_URL,
          { client_id: COPILOT_CLIENT_ID, device_code: code.deviceCode, grant_type: DEVICE_GRANT },
          [code.deviceCode],
          signal,
        );
        transportFailures = 0;
      } catch (error) {
        const transient = error instanceof QuotabarError && (error.code === "network" || error.code === "timeout");
        if (!transient || ++transportFailures >= MAX_TRANSPORT_FAILURES) throw error;
        continue;
      }
      const answer = parseObject(response.body);
      const error = typeof answer?.error === "string" ? answer.error : null;
      if (error === "authorization_pending") {
        options.onPending?.({ intervalSeconds: interval, slowDown: false });
        continue;
      }
      if (error === "slow_down") {
        const asked = typeof answer?.interval === "number" ? answer.interval : Number(answer?.interval);
        interval = Number.isFinite(asked) && asked > interval ? asked : interval + SLOW_DOWN_STEP_SECONDS;
        options.onPending?.({ intervalSeconds: interval, slowDown: true });
        continue;
      }
      if (error === "expired_token") throw expired();
      if (error === "access_denied") {
        throw new QuotabarError("unauthorized", ACCESS_DENIED_MESSAGE, {
          hint: "Run the login again and choose Authorize on the GitHub page to connect quotabar.",
        });
      }
      if (error !== null) {
        const name = /^[a-z_]{1,64}$/.test(error) ? error : "unknown error";
        throw new QuotabarError("unauthorized", `GitHub refused the login (${name})`, {
          hint: "Run the login again; if it keeps failing, use a personal access token with read:user instead.",
        });
      }
      const token = typeof answer?.access_token === "string" ? answer.access_token.trim() : "";
      if (token !== "") return token;
      // Anything else (a proxy page, a half-written body, a 5xx): keep polling until the code expires.
    }
  }

  private async post(url: string, form: Record<string, string>, secrets: string[], signal: AbortSignal | undefined): Promise<HttpResponse> {
    try {
      return await this.http.request({
        url,
        method: "POST",
        headers: { Accept: "application/json" },
        form,
        service: SERVICE,
        secrets,
        timeoutMs: this.requestTimeoutMs,
        acceptStatuses: "any",
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw abortError();
      throw error;
    }
  }
}

function intervalOrDefault(value: number | null | undefined, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.max(1, value) : fallback;
}

function expired(): QuotabarError {
  return new QuotabarError("expired", DEVICE_CODE_EXPIRED_MESSAGE, { hint: DEVICE_CODE_EXPIRED_HINT });
}

function abortError(): Error {
  return new DOMException("The login was cancelled", "AbortError");
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

function parseObject(body: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** GitHub's OAuth error name (`unauthorized_client`, ...), never free text. */
function oauthError(body: string): string | null {
  const error = parseObject(body)?.error;
  return typeof error === "string" && /^[a-z_]{1,64}$/.test(error) ? error : null;
}
