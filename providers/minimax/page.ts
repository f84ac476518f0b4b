import { afterSeconds, findObject, QuotabarError, snakeKeys, tryJson, zoneOffsetMinutes } from "../kit/index.js";
import { parsePage, scriptText, scriptTexts, visibleText, type HtmlPage } from "../kit/html.js";
import { EMPTY_WINDOW, type MiniMaxReading } from "./policy.js";
import { minimaxRemainsReading, type RemainsCaller } from "./remains.js";

/** What the coding-plan page said: usage (null when it carries none) and whether it asks to sign in. */
export interface CodingPlanPage {
  reading: MiniMaxReading | null;
  signedOut: boolean;
}

/** The page is parsed once (size and nesting bounded by the kit); its Next.js data first, else its visible text. */
export function readCodingPlanPage(html: string, now: Date, caller: RemainsCaller): CodingPlanPage {
  const page = parsePage(html, "MiniMax");
  const text = visibleText(page);
  return { reading: fromNextData(page, caller) ?? codingPlanFromText(page, text, now), signedOut: saysSignIn(text) };
}

/** The first object of the Next.js data that holds `modelRemains`, read as the remains API's answer. */
function fromNextData(page: HtmlPage, caller: RemainsCaller): MiniMaxReading | null {
  const data = scriptText(page, "__NEXT_DATA__");
  const holder = data === null ? null : findObject(tryJson(data), (o) => "model_remains" in o || "modelRemains" in o);
  if (!holder) return null;
  try {
    // the page's camelCase (`modelRemains`, `currentSubscribeTitle`) read as the API's snake_case
    return minimaxRemainsReading(snakeKeys(holder), caller);
  } catch (error) {
    // data without usage leaves the page's text to try; a refusal inside it stands
    if (error instanceof QuotabarError && error.code === "parse") return null;
    throw error;
  }
}

/** Sign-in words in what a reader sees; the same words inside scripts (bundled UI strings) do not count. */
function saysSignIn(text: string): boolean {
  const lower = text.toLowerCase();
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

/** The printed figures; only a printed percent is usage (a plan name or a prompt total alone is not). */
function codingPlanFromText(page: HtmlPage, text: string, now: Date): MiniMaxReading | null {
  const usedText = /([0-9]{1,3}(?:\.[0-9]+)?)\s*%\s*used/i.exec(text)?.[1] ?? /used\s*([0-9]{1,3}(?:\.[0-9]+)?)\s*%/i.exec(text)?.[1];
  const used = usedText !== undefined && Number(usedText) <= 100 ? Number(usedText) : null;
  if (used === null) return null;
  const available =
    /available\s+usage[:\s]*([0-9][0-9,]*)\s*prompts?\s*\/\s*([0-9]+(?:\.[0-9]+)?)\s*(hours?|hrs?|h|minutes?|mins?|m|days?|d)\b/i.exec(
      text,
    );
  const windowUnit = available ? unitValue(available[3] as string, UNIT_MINUTES) : null;
  const interval = {
    ...EMPTY_WINDOW,
    total: available ? Number((available[1] as string).replace(/,/g, "")) : null,
    remainingPercent: 100 - used,
    printedMinutes: available && windowUnit !== null ? Math.round(Number(available[2]) * windowUnit) : null,
    printedResetsAt: resetFrom(text, now),
  };
  return { plan: planFrom(page, text), lanes: [{ model: null, interval, weekly: null }] };
}

/** A plan key in the page's inline state first, then the "Coding Plan <name>" heading. */
function planFrom(page: HtmlPage, text: string): string | null {
  const scripts = scriptTexts(page);
  for (const pattern of [/"planName"\s*:\s*"([^"]+)"/i, /"plan"\s*:\s*"([^"]+)"/i, /"packageName"\s*:\s*"([^"]+)"/i]) {
    const match = scripts.map((script) => pattern.exec(script)?.[1]).find((found) => found !== undefined);
    if (match) return cleanPlan(match);
  }
  const match = /Coding\s*Plan\s*([A-Za-z0-9][A-Za-z0-9\s._-]{0,32})/i.exec(text)?.[1];
  if (!match) return null;
  // the heading runs into "Available usage: ..." when both share a line (the text's whitespace is already single spaces)
  const runOn = match.toLowerCase().indexOf(" available usage");
  return cleanPlan(runOn === -1 ? match : match.slice(0, runOn));
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
  const clock = /resets?\s+at\s+([0-9]{1,2}):([0-9]{2})(?:\s*\(([^)]{1,64})\))?/i.exec(text);
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
