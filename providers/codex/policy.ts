import { monthMinutesBefore } from "../../domain/calendar-month.js";
import { meter, percentOf } from "../../domain/meter.js";
import { groupedNumber } from "../../domain/number-text.js";
import type { Detail, Meter, Snapshot } from "../../domain/usage-document.js";

/** One rate-limit window as every route gives it: percent used, its length, its reset. */
export interface CodexWindow {
  /** 0..100 (the wire checks it). */
  usedPercent: number;
  /** The window's length; null when the answer does not say. */
  windowMinutes: number | null;
  resetsAt: string | null;
  /** Where the answer put it; only used when its length is unknown. */
  slot: "primary" | "secondary";
}

/** A limit besides the main one (code review, a model's own limit such as GPT-5.3-Codex-Spark). */
export interface CodexExtraLimit {
  name: string;
  windows: CodexWindow[];
}

/** What the oauth route, the app-server or a session log said, in one shape. */
export interface CodexReading {
  /** The wire's plan id (`plus`, `pro`, `prolite`, `free`, ...). */
  plan: string | null;
  /** The main (Codex) limit's windows. */
  windows: CodexWindow[];
  /** Flex credits; `balance` a count of credits (sent as text such as "0E-10"). */
  credits: { hasCredits: boolean | null; unlimited: boolean | null; balance: number | null } | null;
  /** A team's monthly credit pool, when the account has one. */
  monthlyCredits: { name: string | null; used: number; limit: number; resetsAt: string | null } | null;
  extraLimits: CodexExtraLimit[];
  /** Free "reset my limits" credits left. */
  resetCredits: number | null;
  /** The signed-in account. */
  email: string | null;
  /** When Codex wrote the snapshot read from its session log (null for a live answer). */
  loggedAt: string | null;
}

const SESSION_MINUTES = 300;
const WEEK_MINUTES = 10_080;
const MONTH_MINUTES = 43_200;

type Role = "session" | "weekly" | "other";

/**
 * Which window is the session and which the week is decided by its length, never by its slot: a
 * free plan's only window (weekly) arrives as the primary one. A window of unknown length keeps
 * its slot's meaning, as the other clients read it.
 */
export function roleOf(window: CodexWindow): Role {
  if (window.windowMinutes === SESSION_MINUTES) return "session";
  if (window.windowMinutes === WEEK_MINUTES) return "weekly";
  if (window.windowMinutes === null) return window.slot === "primary" ? "session" : "weekly";
  return "other";
}

const ROLE_ORDER: Record<Role, number> = { session: 0, weekly: 1, other: 2 };

/**
 * Meters: the session window, then the weekly one, then any other (a 30-day window), in the order
 * of the document's three places (a free plan's weekly window is its primary meter); a team's
 * monthly credit pool takes the next free place. Credits, extra limits and the account are details.
 */
export function codexSnapshot(reading: CodexReading, now: Date): Snapshot {
  const ordered = [...reading.windows].sort((a, b) => ROLE_ORDER[roleOf(a)] - ROLE_ORDER[roleOf(b)]);
  const logged = reading.loggedAt !== null;
  const meters: Meter[] = ordered.map((window) => windowMeter(window, labelOf(window), now, logged));
  const pool = reading.monthlyCredits;
  const poolMeter = pool ? monthlyCreditsMeter(pool) : null;
  if (poolMeter && meters.length < 3) meters.push(poolMeter);
  const details: Detail[] = [];
  if (reading.email) details.push({ label: "Account", value: reading.email });
  const credits = creditsText(reading.credits);
  if (credits) details.push({ label: "Credits", value: credits });
  if (pool && poolMeter && !meters.includes(poolMeter)) {
    details.push({
      label: pool.name ?? "Monthly credits",
      value: `${groupedNumber(pool.used, 2)} / ${groupedNumber(pool.limit, 2)} credits`,
    });
  }
  for (const extra of reading.extraLimits) {
    const text = extra.windows
      .map((window) => `${groupedNumber(usedNow(window, now, logged).usedPercent, 1)}% ${windowWords(window)}`)
      .join(", ");
    if (text) details.push({ label: extra.name, value: text });
  }
  if (reading.resetCredits !== null && reading.resetCredits > 0) {
    details.push({ label: "Limit resets available", value: String(reading.resetCredits) });
  }
  if (reading.loggedAt)
    details.push({ label: "From Codex's session log", value: `${ageText(now.getTime() - Date.parse(reading.loggedAt))} old` });
  return { plan: planName(reading.plan), primary: meters[0] ?? null, secondary: meters[1] ?? null, tertiary: meters[2] ?? null, details };
}

function labelOf(window: CodexWindow): string {
  const role = roleOf(window);
  if (role === "session") return "Session";
  if (role === "weekly") return "Weekly";
  return lengthWords(window.windowMinutes);
}

/** "Monthly", "24-hour", "3-day": a window of another length. */
function lengthWords(minutes: number | null): string {
  if (minutes === MONTH_MINUTES) return "Monthly";
  if (minutes === null) return "Window";
  if (minutes % 1440 === 0) return `${minutes / 1440}-day`;
  if (minutes % 60 === 0) return `${minutes / 60}-hour`;
  return `${minutes}-minute`;
}

function windowWords(window: CodexWindow): string {
  const role = roleOf(window);
  return role === "session" ? "5-hour" : role === "weekly" ? "weekly" : lengthWords(window.windowMinutes).toLowerCase();
}

/**
 * A logged window whose reset has passed since Codex wrote it has started again: nothing used, its
 * next reset unknown. A live answer is shown as given.
 */
function usedNow(window: CodexWindow, now: Date, logged: boolean): { usedPercent: number; resetsAt: string | null; reset: boolean } {
  if (logged && window.resetsAt !== null && Date.parse(window.resetsAt) <= now.getTime())
    return { usedPercent: 0, resetsAt: null, reset: true };
  return { usedPercent: window.usedPercent, resetsAt: window.resetsAt, reset: false };
}

function windowMeter(window: CodexWindow, label: string, now: Date, logged: boolean): Meter {
  const { usedPercent, resetsAt, reset } = usedNow(window, now, logged);
  return meter(label, {
    usedPercent,
    resetsAt,
    windowMinutes: window.windowMinutes,
    note: reset ? "Reset since Codex last reported it" : null,
  });
}

function monthlyCreditsMeter(pool: NonNullable<CodexReading["monthlyCredits"]>): Meter | null {
  if (pool.limit <= 0) return null;
  // used past the pool's limit is shown full: the pool is spent
  return meter(pool.name ?? "Monthly credits", {
    usedPercent: percentOf(Math.min(pool.used, pool.limit), pool.limit),
    used: pool.used,
    limit: pool.limit,
    unit: "credits",
    resetsAt: pool.resetsAt,
    // the calendar month that ends at the reset
    windowMinutes: monthMinutesBefore(pool.resetsAt),
  });
}

function creditsText(credits: CodexReading["credits"]): string | null {
  if (credits === null) return null;
  if (credits.unlimited === true) return "Unlimited";
  if (credits.balance !== null) return `${groupedNumber(credits.balance, 2)} credits`;
  return credits.hasCredits === false ? "None" : null;
}

/** "12 min", "3 h", "2 d". */
function ageText(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 120) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h`;
  return `${Math.round(minutes / 1440)} d`;
}

const PLAN_NAMES: Record<string, string> = {
  pro: "Pro 20x",
  prolite: "Pro 5x",
  pro_lite: "Pro 5x",
  "pro-lite": "Pro 5x",
  k12: "K12",
  edu: "Edu",
};

/** A plan id as people read it: `plus` → Plus, `pro` → Pro 20x, `enterprise_cbp_usage_based` → Enterprise CBP Usage Based. */
export function planName(plan: string | null): string | null {
  const id = plan?.trim().toLowerCase();
  if (!id || id === "unknown") return null;
  const named = PLAN_NAMES[id];
  if (named) return named;
  const words = id.split(/[\s_-]+/).filter((word) => word !== "" && !["codex", "plan", "account"].includes(word));
  if (words.length === 0) return null;
  return words.map((word) => (["cbp", "k12"].includes(word) ? word.toUpperCase() : word[0]!.toUpperCase() + word.slice(1))).join(" ");
}
