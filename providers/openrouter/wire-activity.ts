import * as z from "../../domain/zod.js";
import { compareText, decodeJson, type ProviderHttp } from "../kit/index.js";
import { zCount } from "../kit/schema.js";
import type { DailySpend, OpenrouterActivity } from "./policy-activity.js";

/** Always the real host: a management key is never sent to an OPENROUTER_API_URL gateway. */
const ACTIVITY_URL = "https://openrouter.ai/api/v1/activity";
/** The history only adds details: it gets at most this long. */
const ACTIVITY_BUDGET_MS = 3_000;

// One row per UTC day, model and endpoint; only the day and its spend matter here.
const ActivityResponse = z.object({
  data: z.array(
    z.looseObject({
      date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}/)),
      usage: z.nullish(zCount),
    }),
  ),
});

/** `GET /activity` with the management key: spend per day, oldest first; "unavailable" on any failure. */
export async function readActivity(http: ProviderHttp, managementKey: string): Promise<OpenrouterActivity> {
  try {
    const response = await http.request({
      url: ACTIVITY_URL,
      headers: { Authorization: `Bearer ${managementKey}`, Accept: "application/json" },
      timeoutMs: ACTIVITY_BUDGET_MS,
    });
    const { data } = decodeJson(response.body, ActivityResponse, "OpenRouter");
    const byDay = new Map<string, number>();
    for (const row of data) {
      const date = row.date.slice(0, 10);
      byDay.set(date, (byDay.get(date) ?? 0) + (row.usage ?? 0));
    }
    return [...byDay.entries()].sort(([a], [b]) => compareText(a, b)).map(([date, usd]): DailySpend => ({ date, usd }));
  } catch {
    return "unavailable";
  }
}
