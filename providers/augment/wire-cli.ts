import { fromEnv, homeOf, joinPath, providerCache, terminalText, type CredentialContext, type FetchStrategy } from "../kit/index.js";
import type { ProcessResult } from "../../ports/process-runner.js";
import { accountStatus, asksToSignIn, plainLines } from "./cli-output.js";
import { cannotStart, cliFailed, cliTimedOut, noOutput, noSession, notAuthenticated } from "./errors.js";
import { augmentCliSnapshot, type AugmentCliReading } from "./policy.js";

const BINARY = "auggie";
const ARGS = ["account", "status"];
/** The reference's last resort, after PATH and the login shell. */
const SYSTEM_DIRS = ["/usr/bin", "/bin", "/usr/sbin", "/sbin"];
/** The reference's timeout; never more than half the budget, so the web fallback has the rest. */
const RUN_MS = 15_000;
/** Silence allowed (the runner counts it from the start: the CLI may ask the network before its first line). */
const IDLE_MS = 10_000;
const SHELL_PROBE_MS = 2_000;
/** What the login shell said is kept this long, so a user without auggie does not pay a shell start per run. */
const SHELL_ANSWER_TTL_MS = 24 * 3_600_000;
const SHELL_ANSWER_KEY = "auggie-login-shell/augment";
/** Where Node and its global CLIs usually live: auggie is a Node program started through `env node`. */
const NODE_DIRS = ["/opt/homebrew/bin", "/usr/local/bin", "~/.local/bin"];

/**
 * `auggie account status`, when auggie is found: `AUGGIE_CLI_PATH`, then PATH, then what the
 * user's login shell resolves (`command -v`, aliases included), then the system directories. The
 * credential is the binary's path: found means set up, and finding it runs at most the shell probe.
 */
export const augmentCli: FetchStrategy<string, AugmentCliReading> = {
  source: "cli",
  credentials: { resolve: findAuggie },
  missingCredential: noSession,
  toSnapshot: augmentCliSnapshot,
  // every failure but a changed output lets the web try (the reference's v0.18 rule)
  fallbackOn: (error) => error.code !== "parse",
  async fetch(binary, context) {
    const timeoutMs = Math.max(1, Math.min(RUN_MS, context.timeoutMs / 2));
    const env = { ...context.env, PATH: runPath(binary, context) };
    const result = await context.processes
      .run(binary, ARGS, { env, signal: context.signal, timeoutMs, idleTimeoutMs: Math.min(IDLE_MS, timeoutMs) })
      .catch((error: unknown) => {
        throw cannotStart(error);
      });
    return readResult(result);
  },
};

/**
 * The run judged in order: usage shown (read even from a CLI that then hung), a hang, a failed exit,
 * no output, a sign-in request, then the output that is no usage at all (a parse error).
 */
function readResult(result: ProcessResult): AugmentCliReading {
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
  if (result.exitCode !== 0) throw cliFailed(result.exitCode, (err.length > 0 ? err : out).join("\n"));
  throw noOutput();
}

async function findAuggie(context: CredentialContext): Promise<string | null> {
  const { processes } = context;
  const override = fromEnv(context, ["AUGGIE_CLI_PATH"]);
  const chosen = override ? await processes.which(override) : null;
  return chosen ?? (await processes.which(BINARY)) ?? (await fromLoginShell(context)) ?? processes.which(BINARY, SYSTEM_DIRS);
}

/** `command -v auggie` in the user's interactive login shell (its PATH, its aliases), asked once a day at most. */
async function fromLoginShell(context: CredentialContext): Promise<string | null> {
  const shell = fromEnv(context, ["SHELL"]);
  if (!shell?.startsWith("/")) return null;
  const cache = providerCache(context.env);
  const now = context.now().getTime();
  const kept = parseAnswer(await cache.read(SHELL_ANSWER_KEY).catch(() => null));
  let path = kept && kept.shell === shell && now - kept.at >= 0 && now - kept.at < SHELL_ANSWER_TTL_MS ? kept.path : undefined;
  if (path === undefined) {
    const result = await context.processes
      .run(shell, ["-l", "-i", "-c", `command -v ${BINARY}`], { env: context.env, timeoutMs: SHELL_PROBE_MS })
      .catch(() => null);
    path = result && !result.timedOut ? pathInShellAnswer(result.stdout) : null;
    const answer = JSON.stringify({ shell, path, at: now });
    await cache.write(SHELL_ANSWER_KEY, answer).catch(() => undefined);
  }
  return path ? context.processes.which(path) : null;
}

/** The path in `command -v`'s answer: a path, or an alias to one (`alias auggie='/x/auggie'`, zsh's `auggie: aliased to /x/auggie`). */
export function pathInShellAnswer(stdout: string): string | null {
  // rc files may print before the answer: the last line is the answer
  const line = terminalText(stdout.slice(-4096)).trim().split("\n").at(-1)?.trim() ?? "";
  const alias = /^(?:alias\s+)?auggie(?:=|:\s*aliased to\s+)['"]?([^'"\s]+)['"]?\s*$/.exec(line);
  const path = alias ? alias[1] : line;
  return path?.startsWith("/") && !/\s/.test(path) ? path : null;
}

function parseAnswer(text: string | null): { shell: string; path: string | null; at: number } | null {
  try {
    const value = text ? (JSON.parse(text) as { shell?: unknown; path?: unknown; at?: unknown }) : null;
    if (typeof value?.shell !== "string" || typeof value.at !== "number") return null;
    return { shell: value.shell, path: typeof value.path === "string" ? value.path : null, at: value.at };
  } catch {
    return null;
  }
}

/** PATH for the run: the binary's own directory (Node usually sits beside a global CLI), the given PATH, the usual Node homes. */
function runPath(binary: string, context: CredentialContext): string {
  const home = homeOf(context.env);
  const dirs = [binary.slice(0, binary.lastIndexOf("/")), ...(context.env.PATH ?? "").split(":")];
  for (const dir of NODE_DIRS) dirs.push(dir.startsWith("~/") ? joinPath(home, dir.slice(2)) : dir);
  return [...new Set(dirs.filter((dir) => dir !== ""))].join(":");
}
