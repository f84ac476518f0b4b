import { z } from "zod";
import { advice, decodeValue, parseError, QuotabarError, tryJson, zNumber } from "../kit/index.js";
import type { MiniMaxReading } from "./policy.js";
import { FRESH_COOKIE, PASTE_COOKIE, refused, SET_KEY } from "./errors.js";

const SERVICE = "MiniMax";

const ModelRemains = z.object({
  current_interval_total_count: zNumber.nullish(),
  current_interval_usage_count: zNumber.nullish(),
  current_interval_remaining_percent: zNumber.nullish(),
  start_time: zNumber.nullish(),
  end_time: zNumber.nullish(),
  remains_time: zNumber.nullish(),
});
const BaseResp = z.object({ status_code: zNumber.nullish(), status_msg: z.string().nullish() });
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

/** The remains JSON as a reading; status codes inside the body become errors. */
export function minimaxRemainsReading(raw: unknown, caller: RemainsCaller): MiniMaxReading {
  const remains = decodeValue(raw, Remains, SERVICE);
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
    throw parseError(
      "Failed to parse MiniMax coding plan: Missing coding plan data (model_remains is empty).",
      advice("The account may have no active Coding Plan."),
    );
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
  const sessionRefused = code === 1004 || /cookie|log ?in/.test(lower);
  if (sessionRefused && caller === "web-cookie") {
    throw new QuotabarError(
      "unauthorized",
      `MiniMax refused the cookie-only session (status ${code}): the remains API needs a Bearer API token.`,
      { remedies: [...SET_KEY, PASTE_COOKIE, advice("The pasted command must carry the web app's Authorization: Bearer header.")] },
    );
  }
  if (sessionRefused || lower.includes("invalid api key")) throw refused(caller === "api" ? SET_KEY : FRESH_COOKIE);
  throw new QuotabarError("upstream", `MiniMax API error: ${message || `status_code ${code}`}`, {
    remedies: [advice("MiniMax reported a problem."), { kind: "retry" }],
  });
}

/** A body that should be remains JSON; anything else came from a proxy, not from MiniMax. */
export function remainsJson(body: string): unknown {
  const value = tryJson(body);
  if (value === null) {
    throw parseError("Failed to parse MiniMax coding plan: the body is not JSON", advice("A proxy may have answered instead of MiniMax."));
  }
  return value;
}
