import { absolutePath, cleanSecret, fromEnv, homeOf, hostOs, isObject, joinPath, type CredentialContext } from "../kit/index.js";
import { parseSignIn, readSignInFile, shortHash, unusable, type VendorSignIn } from "../kit/vendor-sign-in.js";

export const CLAUDE_CODE: VendorSignIn = { vendor: "Claude Code", command: "claude" };
/** Claude Code's Keychain item on macOS (its source of truth there; the file may be a stale leftover). */
export const KEYCHAIN_SERVICE = "Claude Code-credentials";
const SCOPE_NEEDED = "user:profile";

/** What the usage endpoint needs to know about a sign-in, besides its token. */
export interface SignInFacts {
  /** Where it was read, for messages (`~/.claude/.credentials.json`, `the Keychain item "…"`). */
  where: string;
  /** Epoch milliseconds; null when the sign-in does not say. */
  expiresAt: number | null;
  /** Null when the sign-in lists none. */
  scopes: string[] | null;
  subscriptionType: string | null;
  rateLimitTier: string | null;
}

/**
 * Claude Code's sign-in: the access token only as an own field, so it alone is the credential's
 * secret (redacted, scoping the caches); the facts are private, so a plan called "Team" or the
 * scope "user:profile" are never taken for secrets and blanked out of what is shown.
 */
export class ClaudeSignIn {
  readonly #facts: SignInFacts;
  constructor(
    readonly accessToken: string,
    facts: SignInFacts,
  ) {
    this.#facts = facts;
  }
  get facts(): SignInFacts {
    return this.#facts;
  }
  /** It lists its scopes, and `user:profile` (which the usage endpoint needs) is not one. */
  get lacksProfileScope(): boolean {
    const scopes = this.#facts.scopes;
    return scopes !== null && scopes.length > 0 && !scopes.includes(SCOPE_NEEDED);
  }
}

/**
 * Claude Code's configuration directory: the entry's `claudeConfigDir` (one account per directory),
 * else `$CLAUDE_CONFIG_DIR`, else `~/.claude`. A leading `~/` in the entry is the home directory.
 */
export function claudeConfigDir(context: CredentialContext): { dir: string; chosen: string | null } {
  const home = homeOf(context.env);
  const fromEntry = cleanSecret(context.entry.claudeConfigDir);
  const chosen = fromEntry ?? fromEnv(context, ["CLAUDE_CONFIG_DIR"]);
  if (chosen === null) return { dir: joinPath(home, ".claude"), chosen: null };
  const expanded = fromEntry !== null && (fromEntry === "~" || fromEntry.startsWith("~/")) ? joinPath(home, fromEntry.slice(1)) : chosen;
  return { dir: absolutePath(expanded), chosen };
}

/** A path as people write it: under HOME as `~/…`. */
function shown(path: string, home: string): string {
  return path.startsWith(`${home}/`) ? `~/${path.slice(home.length + 1)}` : path;
}

/**
 * Claude Code's sign-in, read only: on macOS its Keychain item first (through the secret gate, so
 * never in a run nobody watches), then `<config dir>/.credentials.json`. Null when there is none;
 * a file that is there but unusable is an error naming it.
 */
export async function findClaudeSignIn(context: CredentialContext): Promise<ClaudeSignIn | null> {
  const { dir, chosen } = claudeConfigDir(context);
  if (hostOs().platform === "darwin") {
    for (const service of await keychainServices(chosen)) {
      const account = fromEnv(context, ["USER"]);
      const text = await context.browsers.appSecret?.({ service, ...(account ? { account } : {}) }).catch(() => null);
      if (text) return signInOf(parseSignIn(text, `in the Keychain item "${service}"`, CLAUDE_CODE), `in the Keychain item "${service}"`);
    }
  }
  const path = joinPath(dir, ".credentials.json");
  const where = shown(path, homeOf(context.env));
  const value = await readSignInFile(path, where, CLAUDE_CODE);
  return value === null ? null : signInOf(value, where);
}

/** Claude Code names its item after a hash of `CLAUDE_CONFIG_DIR` when that is set (mirroring the CLI), then the plain name. */
async function keychainServices(configDir: string | null): Promise<string[]> {
  if (configDir === null) return [KEYCHAIN_SERVICE];
  return [`${KEYCHAIN_SERVICE}-${await shortHash(configDir)}`, KEYCHAIN_SERVICE];
}

/** The `claudeAiOauth` record, checked; a file without one (only MCP sign-ins, say) cannot be used. */
export function signInOf(value: unknown, where: string): ClaudeSignIn {
  const record = isObject(value) ? value.claudeAiOauth : undefined;
  if (!isObject(record)) throw unusable(where, "has no Claude sign-in (claudeAiOauth)", CLAUDE_CODE);
  const token = cleanSecret(record.accessToken);
  if (token === null) throw unusable(where, "has no access token", CLAUDE_CODE);
  const expiresAt =
    typeof record.expiresAt === "number" && Number.isFinite(record.expiresAt) && record.expiresAt > 0 ? record.expiresAt : null;
  const scopes = Array.isArray(record.scopes) ? record.scopes.filter((scope): scope is string => typeof scope === "string") : null;
  return new ClaudeSignIn(token, {
    where,
    expiresAt,
    scopes,
    subscriptionType: cleanSecret(record.subscriptionType),
    rateLimitTier: cleanSecret(record.rateLimitTier),
  });
}

/** The `claude` CLI: `CLAUDE_CLI_PATH`, else PATH. */
export async function findClaudeCli(context: CredentialContext): Promise<string | null> {
  const override = fromEnv(context, ["CLAUDE_CLI_PATH"]);
  return (override ? await context.processes.which(override) : null) ?? context.processes.which("claude");
}
