import { countProblem, parseError, terminalText } from "../kit/index.js";
import type { CalendarDay, CreditCount, KiroReading } from "./policy.js";

/** How much of a CLI's output is read: the usage table is a few hundred characters. */
const MAX_RAW_CHARS = 256_000;
const MAX_TEXT_CHARS = 64_000;
const MAX_FIELD_CHARS = 120;

/** Phrases of a CLI that needs `kiro-cli login` (lower case). */
const LOGIN_NEEDED = ["not logged in", "login required", "failed to initialize auth portal", "kiro-cli login", "oauth error"];
/** Phrases only a usage table has (lower case): output that holds one is read even if the CLI then hung. */
const USAGE_SHOWN = ["covered in plan", "resets on", "bonus credits", "plan:", "managed by admin", "estimated usage", "credits used:"];

/** With its sign, so a negative figure is refused by name instead of read without it. */
const NUMBER = String.raw`-?\d+(?:\.\d+)?`;
const LEGACY_PLAN = /\|[ \t]*(KIRO[ \t]+[\w+]+)/;
const RESET = /resets on[ \t]+(?:(\d{4})-)?(\d{1,2})[/-](\d{1,2})/i;
const COVERED = new RegExp(String.raw`\((${NUMBER})\s+of\s+(${NUMBER})\s+covered`, "i");
const BONUS = new RegExp(String.raw`bonus credits:\s*(${NUMBER})/(${NUMBER})`, "i");
const EXPIRES = /expires in[ \t]+(\d+)[ \t]+day/i;
const CREDITS_USED = new RegExp(String.raw`credits used:[ \t]*(${NUMBER})`, "i");
const COST = new RegExp(String.raw`est\.[ \t]*cost:[ \t]*\$?(${NUMBER})`, "i");
/** The number right after a bar, read from where the bar ends. */
const AFTER_BAR = new RegExp(String.raw`\s*(${NUMBER})%`, "y");

/** Output as text to read: escapes gone, bounded, each line without the box drawn around it. */
export function plainOutput(raw: string): string {
  const text = terminalText(raw.slice(0, MAX_RAW_CHARS)).slice(0, MAX_TEXT_CHARS);
  return text.split("\n").map(unboxed).join("\n").trim();
}

export const needsLogin = (text: string) => includesAny(text, LOGIN_NEEDED);
export const showsUsage = (text: string) => includesAny(text, USAGE_SHOWN);
export const backendFailed = (text: string) => text.toLowerCase().includes("could not retrieve usage information");

/** The usage table read; output with no usage in it is a parse error (login and backend failures are told apart before). */
export function usageReading(text: string): Omit<KiroReading, "account" | "signedInWith"> {
  if (text === "") throw kiroParseError("Empty output from kiro-cli.");
  const lower = text.toLowerCase();
  const credits = pairOf(COVERED.exec(text), "credits covered");
  const reading = {
    plan: planOf(text),
    percent: barPercent(text),
    credits,
    creditsUsed: numberOf(CREDITS_USED.exec(text)?.[1], "credits used"),
    resetsOn: dayOf(RESET.exec(text)),
    bonus: pairOf(BONUS.exec(text), "bonus credits"),
    bonusExpiresInDays: numberOf(EXPIRES.exec(text)?.[1], "bonus expiry"),
    managed: lower.includes("managed by admin") || lower.includes("managed by organization"),
    overages: valueAfter(text, "overages:"),
    estimatedCostUsd: numberOf(COST.exec(text)?.[1], "estimated cost"),
  };
  if (reading.percent === null && credits === null && reading.creditsUsed === null && !reading.managed) {
    throw kiroParseError("No recognizable usage patterns found. Kiro CLI output format may have changed.");
  }
  return reading;
}

/** `kiro-cli whoami`: `Logged in with <method>`, `Email: <address>`, or a lone address. */
export function identityOf(text: string): Pick<KiroReading, "account" | "signedInWith"> {
  const signedInWith = valueAfter(text, "logged in with")?.replace(/\.$/, "") || null;
  const lone = text.split("\n").find((line) => line.includes("@") && !/\s/.test(line));
  return { account: valueAfter(text, "email:") ?? bounded(lone ?? null), signedInWith };
}

const kiroParseError = (detail: string) => parseError(`Failed to parse Kiro usage: ${detail}`);

/** `Plan: <name>` (kiro-cli 1.24 and later) wins over the older `| KIRO PRO`, which is title-cased. */
function planOf(text: string): string | null {
  const named = valueAfter(text, "Plan:", false);
  if (named) return named;
  const legacy = LEGACY_PLAN.exec(text)?.[1];
  return legacy ? titleCase(legacy) : null;
}

/** The first run of block characters (U+2580 to U+259F) followed by a percentage. */
function barPercent(text: string): number | null {
  let i = 0;
  while (i < text.length) {
    if (!isBlock(text.charCodeAt(i))) {
      i++;
      continue;
    }
    while (i < text.length && isBlock(text.charCodeAt(i))) i++;
    AFTER_BAR.lastIndex = i;
    const value = numberOf(AFTER_BAR.exec(text)?.[1], "usage percent");
    if (value !== null) return value;
  }
  return null;
}

const isBlock = (code: number) => code >= 0x2580 && code <= 0x259f;
/** Box drawing (U+2500 to U+257F) and white space. */
const isFrame = (code: number) => code <= 0x20 || (code >= 0x2500 && code <= 0x257f);

/** A line without the frame of a boxed table around it. */
function unboxed(line: string): string {
  let start = 0;
  let end = line.length;
  while (start < end && isFrame(line.charCodeAt(start))) start++;
  while (end > start && isFrame(line.charCodeAt(end - 1))) end--;
  return line.slice(start, end);
}

/** The rest of the first line holding `label` (lower case: in any case), trimmed and bounded; null when none or empty. */
function valueAfter(text: string, label: string, anyCase = true): string | null {
  for (const line of text.split("\n")) {
    const at = (anyCase ? line.toLowerCase() : line).indexOf(label);
    if (at < 0) continue;
    const rest = line.slice(at + label.length).trim();
    if (rest !== "") return bounded(rest);
  }
  return null;
}

function pairOf(match: RegExpExecArray | null, field: string): CreditCount | null {
  const used = numberOf(match?.[1], `${field} used`);
  const total = numberOf(match?.[2], `${field} total`);
  return used !== null && total !== null ? { used, total } : null;
}

function dayOf(match: RegExpExecArray | null): CalendarDay | null {
  if (!match) return null;
  const [, year, month, day] = match;
  return { year: year ? Number(year) : null, month: Number(month), day: Number(day) };
}

/** A finite number from digits; a number too long to be one is no number; a negative one is a parse error naming `field`. */
function numberOf(digits: string | undefined, field: string): number | null {
  if (digits === undefined) return null;
  const value = Number(digits);
  if (!Number.isFinite(value)) return null;
  const problem = countProblem(value);
  if (problem !== null) throw kiroParseError(`${field} ${problem}.`);
  return value;
}

function includesAny(text: string, phrases: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return phrases.some((phrase) => lower.includes(phrase));
}

const bounded = (text: string | null) => (text === null ? null : text.slice(0, MAX_FIELD_CHARS));

/** `KIRO PRO+` as Kiro Pro+. */
export function titleCase(words: string): string {
  return words
    .split(/[ \t]+/)
    .map((word) => word.charAt(0) + word.slice(1).toLowerCase())
    .join(" ");
}
