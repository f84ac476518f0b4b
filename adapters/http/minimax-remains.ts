import { z } from "zod";
import { QuotabarError } from "../../domain/errors.js";
import type { MiniMaxReading } from "../../domain/providers/minimax.js";
import { decodeValue, looseNumber } from "./decode.js";

export const MINIMAX_SERVICE = "MiniMax";
export const MINIMAX_INVALID = "MiniMax credentials are invalid or expired.";
export const MINIMAX_KEY_HINT =
  "Set MINIMAX_API_KEY, or run `quotabar config set-key minimax --stdin` to store a Coding Plan API key (sk-cp-...) as providers[minimax].apiKey.";

const ModelRemains = z.object({
  current_interval_total_count: looseNumber.nullish(),
  current_interval_usage_count: looseNumber.nullish(),
  current_interval_remaining_percent: looseNumber.nullish(),
  start_time: looseNumber.nullish(),
  end_time: looseNumber.nullish(),
  remains_time: looseNumber.nullish(),
});
const BaseResp = z.object({ status_code: looseNumber.nullish(), status_msg: z.string().nullish() });
const Payload = z.object({
  base_resp: BaseResp.nullish(),
  current_subscribe_title: z.string().nullish(),
  plan_name: z.string().nullish(),
  combo_title: z.string().nullish(),
  current_plan_title: z.string().nullish(),
  current_combo_card: z.object({ title: z.string().nullish() }).nullish(),
  model_remains: z.array(ModelRemains).nullish(),
});
// Some answers wrap the payload in `data`; both forms are accepted.
const Remains = Payload.extend({ data: Payload.nullish() });

/** Who asked: an API token, or a web session with or without a Bearer token. */
export type RemainsCaller = "api" | "web-bearer" | "web-cookie";

/** The remains JSON (reference section 4.5) as a reading; status codes inside the body become errors. */
export function minimaxRemainsReading(raw: unknown, caller: RemainsCaller): MiniMaxReading {
  const remains = decodeValue(raw, Remains, MINIMAX_SERVICE);
  const payload = remains.data ?? remains;
  checkStatus(remains.data?.base_resp ?? remains.base_resp, caller);
  const first = payload.model_remains?.[0];
  const plan =
    [payload.current_subscribe_title, payload.plan_name, payload.combo_title, payload.current_plan_title, payload.current_combo_card?.title]
      .map((value) => value?.trim())
      .find((value) => value) ?? null;
  const total = first?.current_interval_total_count ?? null;
  const remaining = first?.current_interval_usage_count ?? null;
  const remainingPercent = first?.current_interval_remaining_percent ?? null;
  if (!first || (plan === null && total === null && remainingPercent === null)) {
    throw new QuotabarError("parse", "Failed to parse MiniMax coding plan: Missing coding plan data (model_remains is empty).", {
      hint: "The account may have no active Coding Plan.",
    });
  }
  return {
    plan,
    total: total === null ? null : Math.trunc(total),
    remaining: remaining === null ? null : Math.trunc(remaining),
    remainingPercent,
    pageUsedPercent: null,
    startTime: first.start_time ?? null,
    endTime: first.end_time ?? null,
    remainsTime: first.remains_time ?? null,
    pageWindowMinutes: null,
    pageResetsAt: null,
  };
}

/** `base_resp.status_code` 0 is success; 1004 (or a login-ish message) means the credential was refused. */
function checkStatus(base: z.output<typeof BaseResp> | null | undefined, caller: RemainsCaller): void {
  const code = base?.status_code ?? 0;
  if (code === 0) return;
  const message = base?.status_msg?.trim() ?? "";
  const lower = message.toLowerCase();
  const refused = code === 1004 || /cookie|log ?in/.test(lower);
  if (refused && caller === "web-cookie") {
    throw new QuotabarError(
      "unauthorized",
      `MiniMax refused the cookie-only session (status ${code}): the remains API needs a Bearer API token.`,
      {
        hint: `${MINIMAX_KEY_HINT} Or paste a "Copy as cURL" command that carries the Authorization: Bearer header into providers[minimax].cookieHeader / MINIMAX_COOKIE.`,
      },
    );
  }
  if (refused || lower.includes("invalid api key")) {
    throw new QuotabarError("unauthorized", MINIMAX_INVALID, { hint: caller === "api" ? MINIMAX_KEY_HINT : COOKIE_HINT });
  }
  throw new QuotabarError("upstream", `MiniMax API error: ${message || `status_code ${code}`}`, {
    hint: "MiniMax reported a problem; retry later.",
  });
}

export const COOKIE_HINT =
  "Sign in at platform.minimax.io (or platform.minimaxi.com) and paste a fresh Cookie header into providers[minimax].cookieHeader or MINIMAX_COOKIE.";
