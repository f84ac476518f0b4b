import { fromEnv, providerCache, terminalText, type CredentialContext } from "../kit/index.js";

const BINARY = "auggie";
/** The reference's last resort, after PATH and the login shell. */
const SYSTEM_DIRS = ["/usr/bin", "/bin", "/usr/sbin", "/sbin"];
const SHELL_PROBE_MS = 2_000;
/** What the login shell said is kept this long, so a user without auggie does not pay a shell start per run. */
const SHELL_ANSWER_TTL_MS = 24 * 3_600_000;
const SHELL_ANSWER_KEY = "auggie-login-shell/augment";

/**
 * Where auggie is: `AUGGIE_CLI_PATH`, then PATH, then what the user's login shell resolves
 * (`command -v`, aliases included), then the system directories. Finding it runs at most the shell probe.
 */
export async function findAuggie(context: CredentialContext): Promise<string | null> {
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
