import * as z from "../../domain/zod.js";
import { advice, decodeValue, parseError, QuotabarError, tryJson } from "../kit/index.js";
import { zCount, zLeft, zNumber } from "../kit/schema.js";
import { EMPTY_WINDOW, hasUsage, type MiniMaxLane, type MiniMaxReading, type MiniMaxWindow } from "./policy.js";
import { FRESH_COOKIE, PASTE_COOKIE, refused, SET_KEY } from "./errors.js";

const SERVICE = "MiniMax";

// Counts are checked here (a negative one is a parse error naming it), a percent left only for being a number; times are read as sent.
const count = z.nullish(zCount);
const remainingPercent = z.nullish(zLeft);
const time = z.nullish(zNumber);
// Older answers carry only the interval fields; today's add the model name and the weekly twins.
const ModelRemains = z.object({
  model_name: z.nullish(z.string()),
  current_interval_total_count: count,
  current_interval_usage_count: count,
  current_interval_remaining_count: count,
  current_interval_remaining_percent: remainingPercent,
  start_time: time,
  end_time: time,
  remains_time: time,
  current_weekly_total_count: count,
  current_weekly_usage_count: count,
  current_weekly_remaining_count: count,
  current_weekly_remaining_percent: remainingPercent,
  weekly_start_time: time,
  weekly_end_time: time,
  weekly_remains_time: time,
});
type ModelRemainsItem = z.output<typeof ModelRemains>;
const BaseResp = z.object({ status_code: z.nullish(zNumber), status_msg: z.nullish(z.string()) });
const Payload = z.object({
  base_resp: z.nullish(BaseResp),
  current_subscribe_title: z.nullish(z.string()),
  plan_name: z.nullish(z.string()),
  combo_title: z.nullish(z.string()),
  current_plan_title: z.nullish(z.string()),
  current_combo_card: z.nullish(z.object({ title: z.nullish(z.string()) })),
  model_remains: z.nullish(z.array(ModelRemains)),
});
// Some answers wrap the payload in `data`; both forms are accepted.
const Remains = z.extend(Payload, { data: z.nullish(Payload) });

/** Who asked: an API token, or a web session with or without a Bearer token. */
export type RemainsCaller = "api" | "web-bearer" | "web-cookie";

/** The remains JSON as a reading; status codes inside the body become errors, a body without usage a parse error. */
export function minimaxRemainsReading(raw: unknown, caller: RemainsCaller): MiniMaxReading {
  const remains = decodeValue(raw, Remains, SERVICE);
  const payload = remains.data ?? remains;
  checkStatus(remains.data?.base_resp ?? remains.base_resp, caller);
  const items = payload.model_remains ?? [];
  const lanes = items.map(laneOf).filter((lane) => hasUsage(lane.interval));
  if (lanes.length === 0) {
    const why = items.length === 0 ? "model_remains is empty" : "no model_remains item carries a count or a percent";
    throw parseError(
      `Failed to parse MiniMax coding plan: Missing coding plan data (${why}).`,
      advice("The account may have no active Coding Plan."),
    );
  }
  const plan =
    [payload.current_subscribe_title, payload.plan_name, payload.combo_title, payload.current_plan_title, payload.current_combo_card?.title]
      .map((value) => value?.trim())
      .find((value) => value) ?? null;
  return { plan, lanes };
}

function laneOf(item: ModelRemainsItem): MiniMaxLane {
  const weekly = windowOf({
    total: item.current_weekly_total_count,
    left: item.current_weekly_remaining_count ?? item.current_weekly_usage_count,
    remainingPercent: item.current_weekly_remaining_percent,
    start: item.weekly_start_time,
    end: item.weekly_end_time,
    remainsTime: item.weekly_remains_time,
  });
  return {
    model: item.model_name?.trim() || null,
    interval: windowOf({
      total: item.current_interval_total_count,
      // both count what is left: `*_usage_count` despite its name, `*_remaining_count` in some answers instead
      left: item.current_interval_remaining_count ?? item.current_interval_usage_count,
      remainingPercent: item.current_interval_remaining_percent,
      start: item.start_time,
      end: item.end_time,
      remainsTime: item.remains_time,
    }),
    weekly: hasUsage(weekly) ? weekly : null,
  };
}

type Sent = number | null | undefined;

function windowOf(sent: { total: Sent; left: Sent; remainingPercent: Sent; start: Sent; end: Sent; remainsTime: Sent }): MiniMaxWindow {
  return {
    ...EMPTY_WINDOW,
    total: sent.total == null ? null : Math.trunc(sent.total),
    remaining: sent.left == null ? null : Math.trunc(sent.left),
    remainingPercent: sent.remainingPercent ?? null,
    startTime: sent.start ?? null,
    endTime: sent.end ?? null,
    remainsTime: sent.remainsTime ?? null,
  };
}

/** `base_resp.status_code` 0 is success; 1004 (or a login-ish message) means the credential was refused. */
function checkStatus(base: z.output<typeof BaseResp> | null | undefined, caller: RemainsCaller): void {
  const code = base?.status_code ?? 0;
  if (code === 0) return;
  const message = base?.status_msg?.trim() ?? "";
  const lower = message.toLowerCase();
  const sessionRefused = code === 1004 || ["cookie", "log in", "login"].some((word) => lower.includes(word));
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
