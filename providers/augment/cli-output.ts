import { countProblem, terminalText } from "../kit/index.js";
import { cliParse } from "./errors.js";
import type { AugmentCliReading, CycleDay } from "./policy.js";

/** At most this much output is read, and each line only this long: the CLI is not trusted to be small. */
const MAX_OUTPUT_CHARS = 64 * 1024;
const MAX_LINE_CHARS = 400;

/** `450,000` or `450000`, whole, with its sign: a longer run of digits is no count. */
const COUNT = String.raw`(?<![\d,])(-?(?:\d{1,3}(?:,\d{3})+|\d{1,15}))`;
/** Legacy: `38,120 remaining · 411,880 / 450,000 credits used`. */
const REMAINING = new RegExp(String.raw`${COUNT}\s+remaining`, "i");
const USED_OF_TOTAL = new RegExp(String.raw`${COUNT}\s*/\s*${COUNT}\s+credits used`, "i");
/** Boxed (2026): `212,430 credits remaining   Max Plan`. */
const CREDITS_REMAINING = new RegExp(String.raw`${COUNT}\s+credits remaining`, "i");
/** Both: `450,000 credits / month` (legacy after `Max Plan`). */
const PER_MONTH = new RegExp(String.raw`${COUNT}\s+credits\s*/\s*month`, "i");
/** Legacy plan line without `/ month`: `Max Plan 450,000 credits`. */
const PLAN_CREDITS = new RegExp(String.raw`${COUNT}\s+credits`, "i");
/** `12 days remaining in this billing cycle (ends 4/2/2026)`: month/day/year. */
const CYCLE_END = /ends\s+(\d{1,2})\/(\d{1,2})\/(\d{4})/i;

/** The output as trimmed lines of plain text: escapes stripped, bounded, blank lines dropped. */
export function plainLines(raw: string): string[] {
  return terminalText(raw.slice(0, MAX_OUTPUT_CHARS))
    .split("\n")
    .map((line) => line.slice(0, MAX_LINE_CHARS).trim())
    .filter((line) => line !== "");
}

/** The CLI asking for a sign-in rather than showing the account. */
export const asksToSignIn = (lines: readonly string[]) => lines.some((line) => /authentication failed|auggie login/i.test(line));

/**
 * `auggie account status` in either form: the legacy lines (remaining, used / total), or the boxed
 * account card (remaining and the monthly credits, used = total - remaining). Remaining, used and
 * total are all needed; without them it is a parse error.
 */
export function accountStatus(lines: readonly string[]): AugmentCliReading {
  let remaining: number | null = null;
  let used: number | null = null;
  let total: number | null = null;
  let monthlyCredits: number | null = null;
  let cycleEnd: CycleDay | null = null;
  for (const line of lines) {
    const lower = line.toLowerCase();
    if (lower.includes("credits used")) {
      const pair = USED_OF_TOTAL.exec(line);
      used ??= checkedCount(count(pair?.[1]), "credits used");
      total ??= checkedCount(count(pair?.[2]), "credits total");
      remaining ??= count(REMAINING.exec(line)?.[1]);
    } else remaining ??= count(CREDITS_REMAINING.exec(line)?.[1]);
    const plan = lower.includes("plan") && lower.includes("credits") && !lower.includes("remaining");
    monthlyCredits ??= checkedCount(
      count(PER_MONTH.exec(line)?.[1]) ?? (plan ? count(PLAN_CREDITS.exec(line)?.[1]) : null),
      "plan credits",
    );
    if (lower.includes("billing cycle")) cycleEnd ??= dayOf(CYCLE_END.exec(line));
  }
  total ??= monthlyCredits;
  // remaining alone goes below zero (an overage, as on the web); more left than the total is nothing used
  if (used === null && total !== null && remaining !== null) used = Math.max(0, total - remaining);
  if (remaining === null || used === null || total === null) throw cliParse();
  return { remaining, used, limit: total, monthlyCredits, cycleEnd };
}

/** Used, the total and the plan's credits never go below zero: such output is a parse error naming the figure. */
function checkedCount(value: number | null, figure: string): number | null {
  const problem = value === null ? null : countProblem(value);
  if (problem !== null) throw cliParse(`${figure} ${problem}`);
  return value;
}

function count(digits: string | undefined): number | null {
  if (digits === undefined) return null;
  const value = Number(digits.replaceAll(",", ""));
  return Number.isSafeInteger(value) ? value : null;
}

function dayOf(match: RegExpExecArray | null): CycleDay | null {
  if (!match) return null;
  const [, month, day, year] = match;
  return { year: Number(year), month: Number(month), day: Number(day) };
}
