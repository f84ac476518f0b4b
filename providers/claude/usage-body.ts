import * as z from "../../domain/zod.js";
import { decodeValue, fromEpoch, fromIso, parseBoundedJson, toText } from "../kit/index.js";
import { zCount, zFlag, zPercent } from "../kit/schema.js";
import type { ClaudeExtraUsage, ClaudeLimit, ClaudeUsage, ClaudeWindow } from "./policy.js";

/**
 * A reset time in every form Claude sends: ISO with microseconds and an offset, `Z`, no zone at all
 * (UTC), `2099-01-01 00:00:00 UTC`, or a number (epoch seconds, or milliseconds by magnitude).
 */
export function resetTime(value: unknown): string | null {
  if (typeof value === "number") return fromEpoch(value);
  if (typeof value !== "string") return null;
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?$/i.exec(value.trim());
  if (!match) return /^\d+(\.\d+)?$/.test(value.trim()) ? fromEpoch(Number(value)) : null;
  const [, day, time, fraction, zone] = match;
  const millis = fraction ? `.${fraction.slice(0, 3).padEnd(3, "0")}` : "";
  const offset = !zone || /^(z|utc|gmt)$/i.test(zone) ? "Z" : zone.includes(":") ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  return fromIso(`${day}T${time}${millis}${offset}`);
}

const Window = z.nullish(
  z.object({
    utilization: z.nullish(zPercent),
    resets_at: z.optional(z.unknown()),
  }),
);

const Limit = z.object({
  kind: z.nullish(z.string()),
  group: z.nullish(z.string()),
  percent: z.nullish(zPercent),
  resets_at: z.optional(z.unknown()),
  scope: z.nullish(
    z.object({
      model: z.nullish(z.object({ id: z.nullish(z.string()), display_name: z.nullish(z.string()) })),
    }),
  ),
});

const ExtraUsage = z.nullish(
  z.object({
    is_enabled: z.optional(zFlag),
    monthly_limit: z.nullish(zCount),
    monthly_credit_limit: z.nullish(zCount),
    used_credits: z.nullish(zCount),
    // a utilization past 100 % is real here (spend past the cap): a count, not a percent field
    utilization: z.nullish(zCount),
    currency: z.nullish(z.string()),
  }),
);

const ROUTINE_KEYS = [
  "seven_day_cowork",
  "seven_day_routines",
  "seven_day_claude_routines",
  "claude_routines",
  "routines",
  "routine",
  "cowork",
];

const UsageBody = z.object({
  five_hour: Window,
  seven_day: Window,
  seven_day_sonnet: Window,
  seven_day_opus: Window,
  seven_day_oauth_apps: Window,
  limits: z.nullish(z.array(Limit)),
  extra_usage: ExtraUsage,
  ...Object.fromEntries(ROUTINE_KEYS.map((key) => [key, Window])),
});

type WindowBody = z.output<typeof Window>;

function windowOf(body: WindowBody): ClaudeWindow | null {
  if (!body) return null;
  return { usedPercent: body.utilization ?? null, resetsAt: resetTime(body.resets_at) };
}

/**
 * `/api/oauth/usage` or claude.ai's `/usage` (one shape): its windows, `limits[]` and extra usage
 * (cents, made major units). `lenientExtra`: claude.ai's body sends extra usage without
 * `is_enabled`, which then counts as on.
 */
export function usageOf(body: string, service: string, lenientExtra = false): ClaudeUsage {
  const raw = parseBoundedJson(body, service);
  const parsed = decodeValue(raw, UsageBody, service);
  const routineKey = ROUTINE_KEYS.find((key) => (parsed as Record<string, WindowBody>)[key]);
  return {
    fiveHour: windowOf(parsed.five_hour),
    sevenDay: windowOf(parsed.seven_day),
    sonnet: windowOf(parsed.seven_day_sonnet),
    opus: windowOf(parsed.seven_day_opus),
    oauthApps: windowOf(parsed.seven_day_oauth_apps),
    routines: routineKey ? windowOf((parsed as Record<string, WindowBody>)[routineKey]) : null,
    limits: (parsed.limits ?? []).map((limit): ClaudeLimit => ({
      kind: limit.kind ?? "",
      group: limit.group ?? "",
      usedPercent: limit.percent ?? null,
      resetsAt: resetTime(limit.resets_at),
      model: toText(limit.scope?.model?.display_name) ?? toText(limit.scope?.model?.id),
    })),
    extraUsage: extraOf(parsed.extra_usage, lenientExtra),
  };
}

/** Extra usage in major units; a body without credits used or a limit has none to show. */
export function extraOf(extra: z.output<typeof ExtraUsage>, lenient: boolean): ClaudeExtraUsage | null {
  if (!extra) return null;
  const limitCents = extra.monthly_limit ?? extra.monthly_credit_limit ?? null;
  if (extra.used_credits == null && limitCents === null) return null;
  return {
    enabled: extra.is_enabled ?? lenient,
    used: (extra.used_credits ?? 0) / 100,
    limit: limitCents === null ? null : limitCents / 100,
    usedPercent: extra.utilization ?? null,
    currency: toText(extra.currency)?.toUpperCase() ?? "USD",
  };
}
