import { dollars } from "../../domain/number-text.js";
import type { Detail } from "../../domain/usage-document.js";

/** One UTC day of spend from `/activity`, every model and endpoint of that day summed. */
export interface DailySpend {
  date: string;
  usd: number;
}

/** The 30-day history: the days read; "unavailable" when the management key was set but the call failed; null when not asked. */
export type OpenrouterActivity = readonly DailySpend[] | "unavailable" | null;

/** `/activity` covers the last 30 completed UTC days. */
const HISTORY_DAYS = 30;

export function activityDetails(activity: OpenrouterActivity): Detail[] {
  if (activity === null) return [];
  if (activity === "unavailable") return [{ label: "Spend history", value: "30-day spend history unavailable right now" }];
  const total = activity.reduce((sum, day) => sum + day.usd, 0);
  const rows: Detail[] = [
    { label: "Spent, last 30 days", value: dollars(total) },
    { label: "Daily average", value: dollars(total / HISTORY_DAYS) },
  ];
  const busiest = activity.reduce<DailySpend | null>((best, day) => (best === null || day.usd > best.usd ? day : best), null);
  if (busiest && busiest.usd > 0) rows.push({ label: "Busiest day", value: `${dollars(busiest.usd)} on ${busiest.date}` });
  return rows;
}
