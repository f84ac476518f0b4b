import { homeOf, joinPath, type CredentialContext, type FetchContext, type ProviderHttp } from "../kit/index.js";
import type { ProcessResult } from "../../ports/process-runner.js";
import { accountStatus, asksToSignIn, plainLines } from "./cli-output.js";
import { cannotStart, cliFailed, cliTimedOut, noOutput, notAuthenticated } from "./errors.js";
import type { AugmentCliReading } from "./policy.js";

const ARGS = ["account", "status"];
/** The reference's timeout; never more than half the budget, so the web fallback has the rest. */
const RUN_MS = 15_000;
/** Silence allowed (the runner counts it from the start: the CLI may ask the network before its first line). */
const IDLE_MS = 10_000;
/** Where Node and its global CLIs usually live: auggie is a Node program started through `env node`. */
const NODE_DIRS = ["/opt/homebrew/bin", "/usr/local/bin", "~/.local/bin"];

/** `auggie account status` with the binary found, read as usage or turned into the error it tells. */
export async function runAuggie(binary: string, context: FetchContext): Promise<AugmentCliReading> {
  const timeoutMs = Math.max(1, Math.min(RUN_MS, context.timeoutMs / 2));
  const env = { ...context.env, PATH: runPath(binary, context) };
  const result = await context.processes
    .run(binary, ARGS, { env, signal: context.signal, timeoutMs, idleTimeoutMs: Math.min(IDLE_MS, timeoutMs) })
    .catch((error: unknown) => {
      throw cannotStart(error);
    });
  return readResult(result, context.http);
}

/**
 * The run judged in order: usage shown (read even from a CLI that then hung), a hang, a failed exit,
 * no output, a sign-in request, then the output that is no usage at all (a parse error).
 */
function readResult(result: ProcessResult, http: ProviderHttp): AugmentCliReading {
  const out = plainLines(result.stdout);
  const err = plainLines(result.stderr);
  if (out.length > 0) {
    try {
      return accountStatus(out);
    } catch (error) {
      if (!result.timedOut && result.exitCode === 0 && !asksToSignIn(out)) throw error;
    }
  }
  if (result.timedOut) throw cliTimedOut();
  if (asksToSignIn([...out, ...err])) throw notAuthenticated();
  if (result.exitCode !== 0) throw cliFailed(result.exitCode, http.excerpt((err.length > 0 ? err : out).join("\n"), { firstLine: true }));
  throw noOutput();
}

/** PATH for the run: the binary's own directory (Node usually sits beside a global CLI), the given PATH, the usual Node homes. */
function runPath(binary: string, context: CredentialContext): string {
  const home = homeOf(context.env);
  const dirs = [binary.slice(0, binary.lastIndexOf("/")), ...(context.env.PATH ?? "").split(":")];
  for (const dir of NODE_DIRS) dirs.push(dir.startsWith("~/") ? joinPath(home, dir.slice(2)) : dir);
  return [...new Set(dirs.filter((dir) => dir !== ""))].join(":");
}
