import {
  advice,
  decodeValue,
  fromEpochSeconds,
  isObject,
  MAX_DEPTH,
  nestsDeeperThan,
  QuotabarError,
  tryJson,
  type FetchContext,
  type JsonObject,
} from "../kit/index.js";
import { zCount, zNumber, zPercent } from "../kit/schema.js";
import { VERSION } from "../../domain/version.js";
import * as z from "../../domain/zod.js";
import type { ProcessSession } from "../../ports/process-runner.js";
import { notInstalled } from "./cli.js";
import { codexHome, RUN_CODEX, shownEmail } from "./credentials.js";
import type { CodexExtraLimit, CodexReading, CodexWindow } from "./policy.js";
import { creditsOf, positiveMinutes, readingOfUsage, shortText, slotWindows, text, UsageSchema } from "./wire-usage.js";

const SERVICE = "Codex app-server";
/** The whole conversation, at most (CodexBar gives initialize 8 s, then 3 s a request); never past the provider's budget. */
const RPC_MS = 12_000;
/** Stopped this long before the budget ends, so the error is Codex's own and its process group is gone. */
const STOP_EARLY_MS = 300;
/** account/read (the email) is waited for this much longer than the rate limits, at most. */
const ACCOUNT_GRACE_MS = 1_000;
/** `-s read-only -a never`: no tool may run, nothing is asked (CodexBar's arguments). */
const ARGS = ["-s", "read-only", "-a", "never", "app-server"];

const RpcWindow = z.object({ usedPercent: zPercent, windowDurationMins: z.nullish(zCount), resetsAt: z.nullish(zNumber) });
const RpcSnapshot = z.object({
  limitId: text,
  limitName: text,
  primary: z.nullish(RpcWindow),
  secondary: z.nullish(RpcWindow),
  credits: z.nullish(z.object({ hasCredits: z.nullish(z.boolean()), unlimited: z.nullish(z.boolean()), balance: z.nullish(zCount) })),
  planType: text,
});
/** `account/rateLimits/read` (vendor GetAccountRateLimitsResponse, camelCase). */
const RateLimitsResult = z.object({
  rateLimits: RpcSnapshot,
  rateLimitsByLimitId: z.nullish(z.record(z.string(), RpcSnapshot)),
  rateLimitResetCredits: z.nullish(z.object({ availableCount: z.nullish(zCount) })),
});
/** `account/read`: the signed-in account, when it is a ChatGPT one. */
const AccountResult = z.object({ account: z.nullish(z.object({ type: text, email: text, planType: text })) });

type Answer = { result: unknown } | { error: string };

/**
 * `codex app-server` over stdin/stdout: `initialize`, then `account/rateLimits/read` and
 * `account/read`, one JSON object a line. Codex reads (and renews) its own sign-in; the child is
 * ended when the answer is in, on an error, or when the budget runs out.
 */
export async function readAppServer(binary: string, context: FetchContext): Promise<CodexReading> {
  const start = context.processes.start;
  if (!start) throw new QuotabarError("unsupported_platform", "This quotabar cannot talk to codex app-server here.");
  const timeoutMs = Math.max(1, Math.min(RPC_MS, context.timeoutMs - STOP_EARLY_MS));
  // the account's own Codex home (a config entry's codexHome, else CODEX_HOME, else ~/.codex)
  const env = { ...context.env, CODEX_HOME: codexHome(context) };
  const session = start(binary, ARGS, { env, timeoutMs, signal: context.signal });
  try {
    const talk = new Conversation(session, context);
    session.send(
      JSON.stringify({ id: 1, method: "initialize", params: { clientInfo: { name: "quotabar", title: "quotabar", version: VERSION } } }),
    );
    const initialized = await talk.answer(1);
    if ("error" in initialized) throw rpcFailed(initialized.error, context);
    session.send(JSON.stringify({ method: "initialized", params: {} }));
    session.send(JSON.stringify({ id: 2, method: "account/rateLimits/read", params: {} }));
    session.send(JSON.stringify({ id: 3, method: "account/read", params: {} }));
    const limits = await talk.answer(2);
    const account = await talk.answer(3, ACCOUNT_GRACE_MS).catch(() => null);
    return withAccount(readingOfLimits(limits, context), account);
  } finally {
    session.end();
  }
}

/** The answers of one session by id; notifications and lines that are not JSON-RPC are passed over. */
class Conversation {
  private readonly answers = new Map<number, Answer>();
  constructor(
    private readonly session: ProcessSession,
    private readonly context: FetchContext,
  ) {}

  async answer(id: number, waitMs?: number): Promise<Answer> {
    const deadline = waitMs === undefined ? null : Date.now() + waitMs;
    while (!this.answers.has(id)) {
      const line = await (deadline === null ? this.nextLine() : withinMs(this.nextLine(), deadline - Date.now()));
      if (line === null) throw this.ended();
      const message = tryJson(line);
      if (!isObject(message) || typeof message.id !== "number" || nestsDeeperThan(message, MAX_DEPTH)) continue;
      if (isObject(message.error))
        this.answers.set(message.id, { error: typeof message.error.message === "string" ? message.error.message : "" });
      else if ("result" in message) this.answers.set(message.id, { result: message.result });
    }
    return this.answers.get(id)!;
  }

  private nextLine(): Promise<string | null> {
    return this.session.nextLine().catch((error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") throw notInstalled();
      throw new QuotabarError("upstream", `Could not talk to codex app-server: ${code ?? "unknown error"}`, { cause: error });
    });
  }

  /** It stopped before answering: the budget ran out, or it exited (its first stderr line says why). */
  private ended(): QuotabarError {
    if (this.session.timedOut())
      return new QuotabarError("timeout", "Codex CLI timed out.", {
        remedies: [advice("codex app-server did not answer in time; it may be waiting on the network."), { kind: "raise-timeout" }],
      });
    const said = this.context.http.excerpt(this.session.stderr(), { firstLine: true });
    return new QuotabarError("upstream", `codex app-server exited without answering${said ? `: ${said}` : "."}`, {
      remedies: [advice("Run `codex` in a terminal to check that it starts and is signed in."), RUN_CODEX],
    });
  }
}

/** A promise, or null once `ms` have passed. */
function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), Math.max(0, ms));
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** An error answer: sign-in trouble says to run codex; an older CLI that cannot decode a new plan name still quotes the usage body. */
function rpcFailed(message: string, context: FetchContext): QuotabarError {
  const said = context.http.excerpt(message);
  if (/auth|log ?in|sign ?in|401|403|token/i.test(message)) {
    return new QuotabarError("unauthorized", `Codex CLI is not signed in with ChatGPT: ${said}`, { remedies: [RUN_CODEX] });
  }
  return new QuotabarError("upstream", `Codex CLI could not read the rate limits: ${said}`, {
    remedies: [advice("Update the Codex CLI (npm i -g @openai/codex) and try again.")],
  });
}

function readingOfLimits(answer: Answer, context: FetchContext): CodexReading {
  if ("error" in answer) {
    const body = quotedUsageBody(answer.error);
    if (body !== null) return readingOfUsage(decodeValue(body, UsageSchema, SERVICE), context.now());
    throw rpcFailed(answer.error, context);
  }
  const result = decodeValue(answer.result, RateLimitsResult, SERVICE);
  const main = result.rateLimits;
  const extraLimits: CodexExtraLimit[] = [];
  for (const [id, snapshot] of Object.entries(result.rateLimitsByLimitId ?? {}).slice(0, 64)) {
    if (id === "codex" || snapshot.limitId === "codex" || (main.limitId && snapshot.limitId === main.limitId)) continue;
    const windows = rpcWindows(snapshot);
    if (windows.length > 0) extraLimits.push({ name: shortText(snapshot.limitName) ?? shortText(id) ?? "Codex extra limit", windows });
  }
  return {
    plan: shortText(main.planType),
    windows: rpcWindows(main),
    credits: creditsOf(main.credits),
    monthlyCredits: null,
    extraLimits,
    resetCredits: result.rateLimitResetCredits?.availableCount ?? null,
    email: null,
    loggedAt: null,
  };
}

function rpcWindows(snapshot: z.output<typeof RpcSnapshot>): CodexWindow[] {
  return slotWindows(snapshot, (window) => ({
    usedPercent: window.usedPercent,
    windowMinutes: positiveMinutes(window.windowDurationMins),
    resetsAt: fromEpochSeconds(window.resetsAt),
  }));
}

/** `... body={...wham/usage JSON...}`: what an older CLI quotes when it cannot decode the answer (reference §5). */
function quotedUsageBody(message: string): JsonObject | null {
  const at = message.indexOf("body={");
  if (at < 0) return null;
  const body = tryJson(message.slice(at + 5));
  return isObject(body) && !nestsDeeperThan(body, MAX_DEPTH) ? body : null;
}

/** The account's email, and its plan when the limits named none. */
function withAccount(reading: CodexReading, account: Answer | null): CodexReading {
  if (account === null || "error" in account) return reading;
  const parsed = AccountResult.safeParse(account.result);
  const found = parsed.success ? parsed.data.account : null;
  if (!found) return reading;
  return { ...reading, email: shownEmail(found.email), plan: shortText(found.planType) ?? reading.plan };
}
