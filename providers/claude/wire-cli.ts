import { advice, hostOs, parseError, QuotabarError, terminalText, zoneOffsetMinutes, type FetchContext } from "../kit/index.js";
import { noUsage, type ClaudeLimit, type ClaudeReading, type ClaudeWindow } from "./policy.js";

/** The panel is printed within seconds; a CLI that goes quiet this long has said all it will. */
const IDLE_MS = 4_000;
const MAX_RUN_MS = 25_000;
const RUN_CLAUDE = advice("Run `claude` and sign in (/login); quotabar reads its /usage panel.");

/**
 * `claude /usage` in a pseudo-terminal (the TUI draws nothing without one): util-linux `script -c`
 * on Linux, BSD `script` on macOS, no native addon. The binary's path is the only thing quoted into
 * util-linux's command line; nothing secret is ever an argument. Anthropic's variables are left out
 * so the CLI reads its own sign-in, as CodexBar does.
 */
export async function readClaudeCli(binary: string, context: FetchContext): Promise<ClaudeReading> {
  const script = await context.processes.which("script");
  if (!script) {
    throw new QuotabarError("not_installed", "Reading the claude CLI needs `script` (util-linux on Linux) for a pseudo-terminal", {
      remedies: [{ kind: "install", tool: "script", command: "sudo apt install util-linux" }],
    });
  }
  const args =
    hostOs().platform === "darwin"
      ? ["-q", "/dev/null", binary, "/usage"]
      : ["-q", "-e", "-c", `${shellQuoted(binary)} /usage`, "/dev/null"];
  const env = Object.fromEntries(Object.entries(context.env).filter(([name]) => !name.startsWith("ANTHROPIC_")));
  const result = await context.processes.run(script, args, {
    env: { ...env, DISABLE_AUTOUPDATER: "1", TERM: "xterm-256color", COLUMNS: "160", LINES: "50" },
    stdin: "\r",
    timeoutMs: Math.max(1_000, Math.min(MAX_RUN_MS, context.timeoutMs - 500)),
    idleTimeoutMs: IDLE_MS,
    signal: context.signal,
  });
  return cliReading(result.stdout, context.now(), (text) => context.http.excerpt(text, { maxChars: 200 }));
}

/** A path as one word of a POSIX shell command. */
export function shellQuoted(path: string): string {
  return `'${path.replaceAll("'", `'\\''`)}'`;
}

const AUTH_MARKERS =
  /authentication_error|permission_error|token_expired|oauth account information not found|run \/login|api error: 40[13]|invalid api key|not logged in/i;

/** What the `/usage` panel says: its windows, the account and the plan (reference section 5.3). */
export function cliReading(output: string, now: Date, excerpt: (text: string) => string = (t) => t): ClaudeReading {
  const text = terminalText(output);
  const panelStart = text.lastIndexOf("Settings:");
  const lines = (panelStart >= 0 ? text.slice(panelStart) : text).split("\n").map((line) => line.trim());
  const failed = /Failed to load usage data:?(.*)/.exec(text);
  if (failed && !lines.some((line) => labelOf(line))) {
    if (/rate_limit_error/.test(failed[1] ?? ""))
      throw new QuotabarError("rate_limited", "The claude CLI says its usage endpoint is rate limited");
    if (AUTH_MARKERS.test(failed[1] ?? ""))
      throw new QuotabarError("unauthorized", "The claude CLI is not signed in", { remedies: [RUN_CLAUDE] });
    throw new QuotabarError("upstream", `The claude CLI could not load usage data: ${excerpt(failed[1] ?? "")}`);
  }
  const usage = noUsage();
  for (const [index, line] of lines.entries()) {
    const label = labelOf(line);
    if (!label) continue;
    const window = windowAfter(lines, index, label.kind === "session" ? 300 : 10_080, now);
    if (label.kind === "session") usage.fiveHour = window;
    else if (label.kind === "week") usage.sevenDay = window;
    else if (label.kind === "sonnet") usage.sonnet = window;
    else if (label.kind === "opus") usage.opus = window;
    else if (label.kind === "model")
      usage.limits.push({ ...window, kind: "weekly_scoped", group: "weekly", model: label.model } satisfies ClaudeLimit);
  }
  if (!usage.fiveHour) {
    if (AUTH_MARKERS.test(text)) throw new QuotabarError("unauthorized", "The claude CLI is not signed in", { remedies: [RUN_CLAUDE] });
    if (/currently using your subscription/i.test(text)) {
      throw new QuotabarError(
        "not_configured",
        "The claude CLI's /usage has no session quota for this account (an organisation-managed seat)",
      );
    }
    throw parseError("The claude CLI's /usage panel had no Current session", RUN_CLAUDE);
  }
  const email = /(?:Account|Email):\s*([^\s@]+@[^\s@]+)/.exec(text)?.[1] ?? null;
  const org = /(?:Org|Organization):\s*(.+)/.exec(text)?.[1]?.trim() ?? null;
  const login = /Login method:\s*(.+)/.exec(text)?.[1]?.trim() ?? null;
  return {
    usage,
    plan: login ? planWords(login) : null,
    email,
    organization: org && !(email && org.startsWith(email)) ? org : null,
    prepaid: null,
  };
}

/** `Claude Max Account` as a plan: `Max`. */
function planWords(login: string): string | null {
  const words = login.split(" ").filter((word) => word !== "");
  if (words[0]?.toLowerCase() === "claude") words.shift();
  if (words.at(-1)?.toLowerCase() === "account") words.pop();
  return words.length > 0 ? words.join(" ") : null;
}

type Label = { kind: "session" | "week" | "sonnet" | "opus" } | { kind: "model"; model: string };

/** `Current session`, `Current week (all models)`, `Current week (Sonnet only)`, `Current week (Fable)`... */
function labelOf(line: string): Label | null {
  const key = line.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (key === "currentsession") return { kind: "session" };
  if (!key.startsWith("currentweek")) return null;
  const open = line.indexOf("(");
  const scope = open >= 0 ? line.slice(open + 1, line.indexOf(")", open) >= 0 ? line.indexOf(")", open) : undefined).trim() : "";
  const scopeKey = scope.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (scopeKey === "" || scopeKey === "allmodels") return { kind: "week" };
  if (scopeKey === "sonnet" || scopeKey === "sonnetonly") return { kind: "sonnet" };
  if (scopeKey === "opus" || scopeKey === "opusonly") return { kind: "opus" };
  return { kind: "model", model: scope.toLowerCase().endsWith(" only") ? scope.slice(0, -5).trim() : scope };
}

/** The percent and the reset in the lines after a label, up to the next label. */
function windowAfter(lines: readonly string[], start: number, windowMinutes: number, now: Date): ClaudeWindow {
  let usedPercent: number | null = null;
  let resetsAt: string | null = null;
  for (let i = start; i < Math.min(lines.length, start + 14); i++) {
    const line = lines[i] ?? "";
    if (i > start && labelOf(line)) break;
    const value = /(\d{1,3}(?:\.\d+)?)\s*%\s*(used|spent|consumed|left|remaining|available)/i.exec(line);
    if (usedPercent === null && value) {
      const n = Math.min(100, Math.round(Number(value[1])));
      usedPercent = /used|spent|consumed/i.test(value[2] ?? "") ? n : 100 - n;
    }
    const reset = /\bResets?\b(.*)$/.exec(line);
    if (resetsAt === null && reset) resetsAt = resetDate(reset[1] ?? "", now, windowMinutes);
  }
  return { usedPercent, resetsAt };
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * `5am (Europe/Vienna)`, `3:59pm (Europe/Helsinki)`, `Dec 2 at 12am (…)`, `Jan 2, 2026, 10:59pm (…)`:
 * the zone in parentheses (else the machine's); a time alone is its next occurrence, a day without
 * a year the nearest one that is not further back than the window.
 */
export function resetDate(text: string, now: Date, windowMinutes: number): string | null {
  const open = text.indexOf("(");
  const close = open >= 0 ? text.indexOf(")", open) : -1;
  const zone = open >= 0 && close > open ? text.slice(open + 1, close).trim() : undefined;
  const words = (open >= 0 ? text.slice(0, open) : text)
    .replaceAll(",", " ")
    .split(" ")
    .filter((word) => word !== "" && word !== "at" && word !== "t");
  let month = -1;
  let day = 0;
  let year: number | null = null;
  if (words[0] && /^[a-z]{3}/i.test(words[0])) {
    month = MONTHS.indexOf(words[0].slice(0, 3).toLowerCase());
    day = Number(words[1]);
    if (month < 0 || !Number.isInteger(day) || day < 1 || day > 31) return null;
    words.splice(0, 2);
    if (words[0] && /^\d{4}$/.test(words[0])) year = Number(words.shift());
  }
  const clock = /^(\d{1,2})(?::(\d{2}))?(am|pm)?$/i.exec(words.join("").toLowerCase());
  if (month < 0 && !clock) return null;
  if (words.length > 0 && !clock) return null;
  let hour = clock ? Number(clock[1]) : 0;
  if (clock?.[3]) hour = (hour % 12) + (clock[3] === "pm" ? 12 : 0);
  const minute = clock?.[2] ? Number(clock[2]) : 0;
  if (hour > 23 || minute > 59) return null;
  const at = (y: number, m: number, d: number): number => {
    const wall = Date.UTC(y, m, d, hour, minute);
    return wall - zoneOffsetMinutes(zone, new Date(wall)) * 60_000;
  };
  const wallNow = new Date(now.getTime() + zoneOffsetMinutes(zone, now) * 60_000);
  let time: number;
  if (month >= 0 && year !== null) time = at(year, month, day);
  else if (month >= 0) {
    const thisYear = wallNow.getUTCFullYear();
    const candidates = [thisYear - 1, thisYear, thisYear + 1].map((y) => at(y, month, day));
    time = candidates.find((t) => t > now.getTime() - windowMinutes * 60_000) ?? (candidates[2] as number);
  } else {
    time = at(wallNow.getUTCFullYear(), wallNow.getUTCMonth(), wallNow.getUTCDate());
    if (time <= now.getTime()) time += 86_400_000;
  }
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}
