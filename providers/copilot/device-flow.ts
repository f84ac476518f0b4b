import * as z from "../../domain/zod.js";
import {
  advice,
  decodeValue,
  isObject,
  parseBoundedJson,
  QuotabarError,
  scopedHttp,
  toNumber,
  toText,
  tryJson,
  type HttpResponse,
  type Remedy,
} from "../kit/index.js";
import { zNumber } from "../kit/schema.js";
import { withoutControls } from "../../domain/untrusted-text.js";
import type { Clock } from "../../ports/clock.js";
import type { DeviceCode, DeviceFlow, DeviceFlowPollOptions } from "../../ports/device-flow.js";
import type { HttpTransport } from "../../ports/http-client.js";
import { githubOrigins } from "./github-host.js";

/** The VS Code Copilot OAuth app, as the real client uses it. */
const COPILOT_CLIENT_ID = "Iv1.b507a08c87ecfe98";
const SCOPE = "read:user";
const DEVICE_CODE_PATH = "/login/device/code";
const ACCESS_TOKEN_PATH = "/login/oauth/access_token";
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const SERVICE = "GitHub login";

const DEFAULT_INTERVAL_SECONDS = 5;
const DEFAULT_EXPIRES_SECONDS = 900;
/** RFC 8628: after slow_down, wait 5 s more for this and every later request. */
const SLOW_DOWN_STEP_SECONDS = 5;
/** Polls that fail in transit (network, timeout) in a row before the login gives up. */
const MAX_TRANSPORT_FAILURES = 3;
/** Budget of each single request (the login as a whole lasts as long as the code). */
const REQUEST_BUDGET_MS = 15_000;

const signInAgain: Remedy = { kind: "login", provider: "copilot" };

/** Wait `ms`, rejecting with an AbortError when the signal fires. Injected so tests need not wait. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

const DeviceCodeResponse = z.object({
  device_code: z.string().check(z.minLength(1)),
  user_code: z.string().check(z.minLength(1)),
  verification_uri: z.string().check(z.minLength(1)),
  expires_in: z.nullish(zNumber),
  interval: z.nullish(zNumber),
});

/** What the flow is built from; `entry` is the copilot config entry, read for `enterpriseHost`. */
export interface CopilotDeviceFlowDeps {
  transport: HttpTransport;
  clock: Clock;
  sleep?: Sleep;
  entry?: { readonly [field: string]: unknown };
}

/**
 * GitHub's OAuth device flow through the transport, so the origin map applies. The device code and
 * the token are secrets: they are redacted from every request's errors and never put in a message.
 * With an `enterpriseHost` it signs in on that host, where the usage fetch then goes too.
 */
export function copilotDeviceFlow(deps: CopilotDeviceFlowDeps): DeviceFlow {
  const { transport, clock } = deps;
  const sleep = deps.sleep ?? realSleep;
  // read on each call, so a bad host fails the call (a rejected promise), not the construction
  const web = () => githubOrigins(deps.entry).web;

  async function post(url: string, form: Record<string, string>, secrets: string[], signal?: AbortSignal): Promise<HttpResponse> {
    const http = scopedHttp(transport, {
      service: SERVICE,
      signal: signal ?? new AbortController().signal,
      deadline: Date.now() + REQUEST_BUDGET_MS,
      budgetMs: REQUEST_BUDGET_MS,
      secrets,
    });
    try {
      // every status is read here: GitHub answers OAuth errors in the body
      return await http.request({
        url,
        method: "POST",
        // token endpoints: a redirect (which would resend the device code) is an error
        redirect: "refuse",
        headers: { Accept: "application/json" },
        form,
        statusRules: { "4xx": "pass", "5xx": "pass" },
      });
    } catch (error) {
      if (signal?.aborted) throw abortError();
      throw error;
    }
  }

  return {
    async start(signal) {
      const response = await post(`${web()}${DEVICE_CODE_PATH}`, { client_id: COPILOT_CLIENT_ID, scope: SCOPE }, [], signal);
      if (response.status !== 200) {
        const error = oauthError(response.body);
        throw new QuotabarError(
          "upstream",
          `GitHub refused the device code request (HTTP ${response.status}${error ? `: ${error}` : ""})`,
          {
            status: response.status,
            remedies: [
              { kind: "retry", afterSeconds: 60 },
              advice("If it keeps failing, GitHub may have changed the device flow (https://www.githubstatus.com)."),
            ],
          },
        );
      }
      const body = decodeValue(parseBoundedJson(response.body, SERVICE), DeviceCodeResponse, SERVICE);
      const expiresIn = body.expires_in && body.expires_in > 0 ? body.expires_in : DEFAULT_EXPIRES_SECONDS;
      return {
        deviceCode: body.device_code,
        // shown to the user as they come: no escape, backspace or bidi override reaches a terminal or a view
        userCode: withoutControls(body.user_code).trim(),
        verificationUri: withoutControls(body.verification_uri).trim(),
        expiresAt: new Date(clock.now().getTime() + expiresIn * 1000),
        intervalSeconds: intervalOrDefault(body.interval),
      };
    },

    async poll(code: DeviceCode, options: DeviceFlowPollOptions = {}) {
      const { signal } = options;
      let interval = intervalOrDefault(code.intervalSeconds);
      let transportFailures = 0;
      for (;;) {
        if (clock.now().getTime() >= code.expiresAt.getTime()) throw expired();
        // Wait before every request, the first one included (GitHub counts polls from the code's issue).
        await sleep(interval * 1000, signal);
        let response: HttpResponse;
        try {
          const form = { client_id: COPILOT_CLIENT_ID, device_code: code.deviceCode, grant_type: DEVICE_GRANT };
          response = await post(`${web()}${ACCESS_TOKEN_PATH}`, form, [code.deviceCode], signal);
          transportFailures = 0;
        } catch (error) {
          const transient = error instanceof QuotabarError && (error.code === "network" || error.code === "timeout");
          if (!transient || ++transportFailures >= MAX_TRANSPORT_FAILURES) throw error;
          continue;
        }
        const answer = objectOf(response.body);
        const error = typeof answer?.error === "string" ? answer.error : null;
        if (error === "authorization_pending") {
          options.onPending?.({ intervalSeconds: interval, slowDown: false });
          continue;
        }
        if (error === "slow_down") {
          const asked = toNumber(answer?.interval);
          interval = asked !== null && asked > interval ? asked : interval + SLOW_DOWN_STEP_SECONDS;
          options.onPending?.({ intervalSeconds: interval, slowDown: true });
          continue;
        }
        if (error === "expired_token") throw expired();
        if (error === "access_denied") {
          throw new QuotabarError("unauthorized", "Login failed: you denied access on GitHub", {
            remedies: [signInAgain, advice("Choose Authorize on the GitHub page to connect quotabar.")],
          });
        }
        if (error !== null) {
          throw new QuotabarError("unauthorized", `GitHub refused the login (${oauthErrorName(error) ?? "unknown error"})`, {
            remedies: [
              signInAgain,
              advice("If it keeps failing, use a personal access token with read:user instead."),
              { kind: "set-key", provider: "copilot", env: ["COPILOT_API_TOKEN"] },
            ],
          });
        }
        const token = toText(answer?.access_token);
        if (token !== null) return token;
        // Anything else (a proxy page, a half-written body, a 5xx): keep polling until the code expires.
      }
    },
  };
}

function intervalOrDefault(value: number | null | undefined): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.max(1, value) : DEFAULT_INTERVAL_SECONDS;
}

function expired(): QuotabarError {
  return new QuotabarError("expired", "The device code expired before it was authorized (codes last about 15 minutes)", {
    remedies: [advice("The code expired; a new sign-in gets a new code."), signInAgain],
  });
}

function abortError(): Error {
  return new DOMException("The login was cancelled", "AbortError");
}

function objectOf(body: string): Record<string, unknown> | null {
  const value = tryJson(body);
  return isObject(value) ? value : null;
}

/** GitHub's OAuth error name (`unauthorized_client`, ...), never free text. */
function oauthErrorName(error: unknown): string | null {
  return typeof error === "string" && /^[a-z_]{1,64}$/.test(error) ? error : null;
}

function oauthError(body: string): string | null {
  return oauthErrorName(objectOf(body)?.error);
}
