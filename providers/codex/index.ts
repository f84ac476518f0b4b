import { notConfigured, advice, type FetchStrategy, type ProviderCode, type QuotabarError, type FetchContext } from "../kit/index.js";
import { codexBinary, notInstalled } from "./cli.js";
import { authFileOf, codexHome, codexSignIn, type CodexSignIn } from "./credentials.js";
import { codexSnapshot, type CodexReading } from "./policy.js";
import { codexSessionLogs, sessionsDirOf, type SessionLog } from "./session-logs.js";

/** In auto mode each route hands over to the next on any failure but a spent budget (nothing would be left for it). */
const handOver = (error: QuotabarError, context: FetchContext) => context.sourceMode === "auto" && error.code !== "timeout";

/**
 * An expired or refused sign-in is told as it is, with the last good snapshot: another route's
 * numbers (a log as old as the token) would hide that running `codex` once is all it takes.
 */
const SIGN_IN_TROUBLE: readonly string[] = ["expired", "unauthorized"];

const signInMissing = (context: Parameters<FetchStrategy["missingCredential"]>[0]) =>
  notConfigured(
    `Codex is not signed in: no ${authFileOf(codexHome(context))}.`,
    advice("Install the Codex CLI and run `codex login` (ChatGPT sign-in); quotabar reads its sign-in and never changes it."),
  );

/** wham/usage with the ChatGPT sign-in Codex keeps in auth.json (read only, never renewed here). */
export const codexOauth: FetchStrategy<CodexSignIn, CodexReading> = {
  source: "oauth",
  credentials: codexSignIn,
  missingCredential: signInMissing,
  fallbackOn: (error, context) => handOver(error, context) && !SIGN_IN_TROUBLE.includes(error.code),
  toSnapshot: codexSnapshot,
  // whose numbers these are: the ChatGPT account, whichever access token Codex holds for it now
  identity: (signIn) => ("problem" in signIn ? null : (signIn.accountId ?? signIn.accessToken)),
  // the wire (request, schemas) loads with the first fetch: listing providers never loads it
  fetch: async (signIn, context) => (await import("./wire.js")).readCodexUsage(signIn, context),
};

/** `codex app-server` (JSON-RPC over stdio): the CLI reads and renews its own sign-in. */
export const codexCli: FetchStrategy<string, CodexReading> = {
  source: "cli",
  credentials: codexBinary,
  missingCredential: notInstalled,
  fallbackOn: handOver,
  toSnapshot: codexSnapshot,
  fetch: async (binary, context) => (await import("./wire-rpc.js")).readAppServer(binary, context),
};

/** The rate limits Codex last wrote to its session log: no network at all. */
export const codexLocal: FetchStrategy<SessionLog[], CodexReading> = {
  source: "local",
  credentials: codexSessionLogs,
  missingCredential: (context) =>
    notConfigured(
      `No Codex session logs under ${sessionsDirOf(codexHome(context))}.`,
      advice("Codex writes them as it is used; run `codex` once."),
    ),
  toSnapshot: codexSnapshot,
  fetch: async (logs) => (await import("./wire-log.js")).readSessionLogs(logs),
};

export const codex: ProviderCode = {
  // auto: ChatGPT's answer with Codex's sign-in, then the CLI, then Codex's own log
  strategies: [codexOauth, codexCli, codexLocal],
  simulator: async () => (await import("./simulator.js")).codexUpstream,
};
