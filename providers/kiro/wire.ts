import type { FetchContext, ProviderHttp } from "../kit/index.js";
import type { ProcessResult } from "../../ports/process-runner.js";
import { cannotStart, cliFailed, couldNotRetrieve, notLoggedIn, timedOut } from "./errors.js";
import type { KiroReading } from "./policy.js";
import { backendFailed, identityOf, needsLogin, plainOutput, showsUsage, usageReading } from "./usage-text.js";

const USAGE_ARGS = ["chat", "--no-interactive", "/usage"];
/** The login check is cheap: a few seconds at most, and never more than a third of the budget. */
const WHOAMI_MS = 3_000;
const USAGE_MS = 20_000;
/** Silence allowed: the runner counts it from the start, and the CLI may think before its first line. */
const USAGE_IDLE_MS = 10_000;
/** The CLI is stopped this long before the budget ends, so its process group goes and the error is Kiro's own. */
const STOP_EARLY_MS = 300;

/** `kiro-cli whoami` as a login check, then `kiro-cli chat --no-interactive /usage`, both within the budget. */
export async function readKiro(binary: string, context: FetchContext): Promise<KiroReading> {
  const deadline = Date.now() + context.timeoutMs;
  const whoami = await run(binary, ["whoami"], context, { timeoutMs: Math.max(1, Math.min(WHOAMI_MS, context.timeoutMs / 3)) });
  const identity = loginCheck(whoami);
  const hard = Math.max(1, Math.min(USAGE_MS, deadline - Date.now() - STOP_EARLY_MS));
  const usage = await run(binary, USAGE_ARGS, context, { timeoutMs: hard, idleTimeoutMs: Math.min(USAGE_IDLE_MS, hard) });
  return { ...usageOf(usage, context.http), ...identity };
}

/** Not logged in stops here; any other whoami trouble (an old CLI, a slow one) is left to /usage to show. */
function loginCheck(whoami: ProcessResult): Pick<KiroReading, "account" | "signedInWith"> {
  const out = plainOutput(whoami.stdout);
  if (needsLogin(plainOutput(whoami.stderr) || out)) throw notLoggedIn();
  return whoami.exitCode === 0 && !whoami.timedOut ? identityOf(out) : { account: null, signedInWith: null };
}

/**
 * The /usage run judged in order: a login prompt (unless a table came too: a tip may name
 * kiro-cli login), a hang before any table, the backend's own failure, a crash, then the table
 * itself (stdout, else stderr). A CLI that printed its table and then hung is read.
 */
function usageOf(result: ProcessResult, http: ProviderHttp): Omit<KiroReading, "account" | "signedInWith"> {
  const out = plainOutput(result.stdout);
  const err = plainOutput(result.stderr);
  const text = out || err;
  if (needsLogin(`${err}\n${out}`) && !showsUsage(text)) throw notLoggedIn();
  if (result.timedOut && !showsUsage(text)) throw timedOut();
  if (backendFailed(text)) throw couldNotRetrieve();
  if (!result.timedOut && result.exitCode !== 0 && !showsUsage(text)) throw cliFailed(result.exitCode, err || out, http.excerpt);
  return usageReading(text);
}

async function run(binary: string, args: string[], context: FetchContext, limits: { timeoutMs: number; idleTimeoutMs?: number }) {
  // the CLI colours its table for this terminal type; the colours are stripped
  const env = { ...context.env, TERM: "xterm-256color" };
  return context.processes.run(binary, args, { env, signal: context.signal, ...limits }).catch((error: unknown) => {
    throw cannotStart(error);
  });
}
