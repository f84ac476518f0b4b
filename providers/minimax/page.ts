import { afterSeconds, findObject, snakeKeys, tryJson } from "../kit/index.js";
import type { MiniMaxReading } from "./policy.js";
import { minimaxRemainsReading, type RemainsCaller } from "./remains.js";

/**
 * The coding-plan page: the Next.js data blob when the page has one, else the visible text. Null when neither says anything about the plan.
 */
export function codingPlanFromPage(html: string, now: Date, caller: RemainsCaller): MiniMaxReading | null {
  const nextData = /<script[^>]*id=["']__NEXT_DATA__["'][^>]*>([\s\S]*?)<\/script>/i.exec(html)?.[1];
  if (nextData) {
    const holder = findObject(tryJson(nextData), (o) => "model_remains" in o || "modelRemains" in o);
    // the page's camelCase (`modelRemains`, `currentSubscribeTitle`) read as the API's snake_case
    if (holder) return minimaxRemainsReading(snakeKeys(holder), caller);
  }
  return codingPlanFromText(html, now);
}

/** A signed-out page says so in its text; words inside scripts (bundled UI strings) do not count. */
export function looksSignedOut(html: string): boolean {
  const lower = html.replace(/<script[\s\S]*?<\/script>/gi, " ").toLowerCase();
  return ["sign in", "log in", "登录", "登入"].some((word) => lower.includes(word));
}

const UNIT_MINUTES: [RegExp, number][] = [
  [/^d/i, 1440],
  [/^h/i, 60],
  [/^m/i, 1],
];
const UNIT_SECONDS: [RegExp, number][] = [
  [/^d/i, 86400],
  [/^h/i, 3600],
  [/^m/i, 60],
  [/^s/i, 1],
];
const unitValue = (unit: string, table: [RegExp, number][]) => table.find(([pattern]) => pattern.test(unit))?.[1] ?? null;

function codingPlanFromText(html: string, now: Date): MiniMaxReading | null {
  const text = html
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/\s+/g, " ")
    .trim();
  const plan = planFrom(html, text);
  const available =
    /available\s+usage[:\s]*([0-9][0-9,]*)\s*prompts?\s*\/\s*([0-9]+(?:\.[0-9]+)?)\s*(hours?|hrs?|h|minutes?|mins?|m|days?|d)\b/i.exec(
      text,
    );
  const usedText = /([0-9]{1,3}(?:\.[0-9]+)?)\s*%\s*used/i.exec(text)?.[1] ?? /used\s*([0-9]{1,3}(?:\.[0-9]+)?)\s*%/i.exec(text)?.[1];
  const used = usedText !== undefined && Number(usedText) <= 100 ? Number(usedText) : null;
  if (plan === null && !available && used === null) return null;
  const windowUnit = available ? unitValue(available[3] as string, UNIT_MINUTES) : null;
  return {
    plan,
    total: available ? Number((available[1] as string).replace(/,/g, "")) : null,
    remaining: null,
    remainingPercent: null,
    pageUsedPercent: used,
    startTime: null,
    endTime: null,
    remainsTime: null,
    pageWindowMinutes: available && windowUnit !== null ? Math.round(Number(available[2]) * windowUnit) : null,
    pageResetsAt: resetFrom(text, now),
  };
}

function planFrom(html: string, text: string): string | null {
  for (const pattern of [/"planName"\s*:\s*"([^"]+)"/i, /"plan"\s*:\s*"([^"]+)"/i, /"packageName"\s*:\s*"([^"]+)"/i]) {
    const match = pattern.exec(html)?.[1];
    if (match) return cleanPlan(match);
  }
  const match = /Coding\s*Plan\s*([A-Za-z0-9][A-Za-z0-9\s._-]{0,32})/i.exec(text)?.[1];
  return match ? cleanPlan(match.replace(/\s+available\s+usage.*$/i, "")) : null;
}

/** The label as the Mac app shows it: the words plan/account/claude/codex dropped, spaces collapsed, capitalised. */
function cleanPlan(label: string): string | null {
  const cleaned = label
    .replace(/\b(claude|codex|account|plan)\b/gi, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (cleaned === "") return null;
  return cleaned[0]!.toUpperCase() + cleaned.slice(1);
}

function resetFrom(text: string, now: Date): string | null {
  const relative = /resets?\s+in\s+([0-9]+)\s*(seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d)\b/i.exec(text);
  if (relative) {
    const unit = unitValue(relative[2] as string, UNIT_SECONDS);
    return unit === null ? null : afterSeconds(now, Number(relative[1]) * unit);
  }
  const clock = /resets?\s+at\s+([0-9]{1,2}):([0-9]{2})(?:\s*\(([^)]+)\))?/i.exec(text);
  if (!clock) return null;
  return nextClockTime(Number(clock[1]), Number(clock[2]), clock[3]?.trim(), now);
}

/** The next time the wall clock of `zone` (local time when absent or unknown) shows hh:mm. */
export function nextClockTime(hours: number, minutes: number, zone: string | undefined, now: Date): string | null {
  if (hours > 23 || minutes > 59) return null;
  const offset = (at: Date) => zoneOffsetMinutes(zone, at);
  const wall = new Date(now.getTime() + offset(now) * 60_000);
  let candidate = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate(), hours, minutes) - offset(now) * 60_000;
  if (candidate <= now.getTime()) candidate += 86_400_000;
  // Re-apply the offset of the day found, in case a DST change lies in between.
  candidate += (offset(now) - offset(new Date(candidate))) * 60_000;
  return new Date(candidate).toISOString();
}

function zoneOffsetMinutes(zone: string | undefined, at: Date): number {
  const fields = {
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  } as const;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", { ...fields, timeZone: zone });
  } catch {
    format = new Intl.DateTimeFormat("en-US", fields); // an unknown zone name: the machine's zone
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}
