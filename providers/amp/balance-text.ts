import { advice, leftProblem, parseError } from "../kit/index.js";
import type { AmpBalance } from "./policy-balance.js";

/** The text is a handful of lines; more is not Amp's, and each line is read bounded. */
const MAX_TEXT_CHARS = 8_000;
const MAX_LINE_CHARS = 400;

/** `$20`, `$1.66`, `$1,234.50`: thousands grouped by threes or not at all. */
const MONEY = String.raw`\$(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)`;
const FREE_DOLLARS = new RegExp(
  String.raw`^Amp Free: ${MONEY}/${MONEY} remaining \(replenishes \+${MONEY}/hour\)(?: \[?\+(\d+)% bonus for (\d+) more days?\]?)?$`,
);
const FREE_PERCENT = /^Amp Free: (\d+(?:\.\d+)?)% remaining today(?: \(resets daily\))?$/;
/** A parenthesised remark may follow a balance: `(replenishes automatically)`, `(set up auto-reload ...)`. */
const CREDITS = new RegExp(String.raw`^Individual credits: ${MONEY} remaining(?: \([^()]*\))?$`);
const WORKSPACE = new RegExp(String.raw`^Workspace (\S[^:]{0,79}): (-?)${MONEY} remaining(?: \([^()]*\))?$`);
/** The settings link a line may end with. */
const TRAILING_LINK = / - https?:\/\/\S+$/;

/** The shapes read, as the error names them. */
const SHAPES = {
  free: '"Amp Free: $<remaining>/$<total> remaining (replenishes +$<rate>/hour)" or "Amp Free: <percent>% remaining today"',
  credits: '"Individual credits: $<amount> remaining"',
  workspace: '"Workspace <name>: $<amount> remaining"',
};

const changedText = (detail: string) =>
  parseError(`Could not parse Amp balance: ${detail}`, advice("Amp may have changed its balance text; please report it."));

const money = (text: string): number => Number(text.replaceAll(",", ""));

/**
 * The `displayText` of `userDisplayBalanceInfo`, read strictly: a line that starts like a known
 * one must have its whole shape (or the error names the shape), other lines (`Signed in as`, a
 * subscription) are passed over, and a text with neither Amp Free nor credits is an error too.
 */
export function readBalanceText(text: string): AmpBalance {
  if (text.length > MAX_TEXT_CHARS) throw changedText(`the balance text is longer than ${MAX_TEXT_CHARS} characters.`);
  const balance: AmpBalance = { free: null, bonus: null, credits: null, workspaces: [] };
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\s+/g, " ").trim().replace(TRAILING_LINK, "");
    if (line.startsWith("Amp Free:")) readFree(bounded(line, "Amp Free"), balance);
    else if (line.startsWith("Individual credits:")) balance.credits = money(matched(CREDITS, line, "Individual credits")[1]!);
    else if (line.startsWith("Workspace ")) {
      const [, name = "", minus, amount = ""] = matched(WORKSPACE, line, "Workspace");
      balance.workspaces.push({ name, remaining: (minus ? -1 : 1) * money(amount) });
    }
  }
  if (balance.free === null && balance.credits === null) {
    throw changedText(`the balance text has no ${SHAPES.free} line, nor ${SHAPES.credits}.`);
  }
  return balance;
}

function readFree(line: string, balance: AmpBalance): void {
  const percent = FREE_PERCENT.exec(line);
  if (percent) {
    const remainingPercent = Number(percent[1]);
    // the shape has no sign; more than all of it left is nothing used (domain/coerce's rule)
    const problem = leftProblem(remainingPercent);
    if (problem !== null) throw changedText(`the Amp Free percent remaining ${problem}.`);
    balance.free = { kind: "percent", remainingPercent };
    return;
  }
  const [, remaining = "", total = "", hourly = "", bonusPercent, bonusDays] = matched(FREE_DOLLARS, line, "Amp Free");
  balance.free = { kind: "dollars", remaining: money(remaining), total: money(total), hourly: money(hourly) };
  if (bonusPercent !== undefined && bonusDays !== undefined) balance.bonus = { percent: Number(bonusPercent), days: Number(bonusDays) };
}

function matched(pattern: RegExp, line: string, what: keyof typeof LINE_SHAPES): RegExpExecArray {
  const match = pattern.exec(bounded(line, what));
  if (!match) throw changedText(`the ${what} line is not ${LINE_SHAPES[what]}.`);
  return match;
}

const LINE_SHAPES = { "Amp Free": SHAPES.free, "Individual credits": SHAPES.credits, Workspace: SHAPES.workspace };

function bounded(line: string, what: keyof typeof LINE_SHAPES): string {
  if (line.length > MAX_LINE_CHARS) throw changedText(`the ${what} line is longer than ${MAX_LINE_CHARS} characters.`);
  return line;
}
