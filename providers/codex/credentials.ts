import {
  advice,
  homeOf,
  isObject,
  jwtClaims,
  joinPath,
  QuotabarError,
  toText,
  type CredentialContext,
  type CredentialSource,
  type Remedy,
  type VendorHome,
} from "../kit/index.js";
import { readSignInFile, refreshByRunning, unusable, type VendorSignIn } from "../kit/vendor-sign-in.js";

/** Codex wrote it, and `codex` renews it. */
export const CODEX: VendorSignIn = { vendor: "Codex", command: "codex" };
export const RUN_CODEX: Remedy = refreshByRunning(CODEX);

/** Where Codex keeps its sign-in and logs: one home per account (`codexHome`), the default account's from CODEX_HOME or ~/.codex. */
export const CODEX_HOME: VendorHome = { field: "codexHome", env: ["CODEX_HOME"], underHome: ".codex" };

/**
 * The Codex home: the config entry's `codexHome` (one per account), else $CODEX_HOME, else ~/.codex.
 * `~/` is the user's home; another relative path is taken from the current directory, as Codex does.
 */
export function codexHome(context: Pick<CredentialContext, "env" | "entry">): string {
  const chosen = toText(context.entry.codexHome)?.trim() || context.env.CODEX_HOME?.trim() || null;
  if (chosen === null) return joinPath(homeOf(context.env), ".codex");
  if (chosen === "~" || chosen.startsWith("~/")) return joinPath(homeOf(context.env), chosen.slice(1));
  return /^(?:[A-Za-z]:)?[\\/]/.test(chosen) ? chosen : joinPath(process.cwd(), chosen);
}

export const authFileOf = (home: string) => joinPath(home, "auth.json");

/**
 * What auth.json holds, as the oauth route uses it. Only the tokens are strings (every string of a
 * credential is redacted from output); a file that cannot be used is a `problem` the fetch reports,
 * so auto mode can still go on to the CLI and the session logs.
 */
export type CodexSignIn =
  | {
      accessToken: string;
      accountId: string | null;
      idToken: string | null;
      /** When the access token expires (ms), from its `exp` claim; null when it does not say. */
      expiresAtMs: number | null;
    }
  /** A function, so its message is not taken for a secret of the credential (every string of one is redacted). */
  | { problem: () => QuotabarError };

/** Codex's auth.json, read and never written (the kit's vendor sign-in): its refresh token rotates, so quotabar never uses it. */
export const codexSignIn: CredentialSource<CodexSignIn> = {
  async resolve(context) {
    const path = authFileOf(codexHome(context));
    let body: unknown;
    try {
      body = await readSignInFile(path, path, CODEX);
    } catch (error) {
      return { problem: () => error as QuotabarError };
    }
    return body === null ? null : signInOf(body, path);
  },
};

/** The tokens of auth.json (snake_case as Codex writes it, camelCase as some tools do). */
export function signInOf(body: unknown, path: string): CodexSignIn {
  if (!isObject(body)) return { problem: () => unusable(path, "is not a JSON object", CODEX) };
  const tokens = isObject(body.tokens) ? body.tokens : null;
  const accessToken = toText(tokens?.access_token ?? tokens?.accessToken)?.trim() || null;
  if (accessToken === null) {
    const apiKey = toText(body.OPENAI_API_KEY)?.trim();
    if (apiKey || body.auth_mode === "apikey") return { problem: () => apiKeyOnly(path) };
    return { problem: () => unusable(path, "holds no ChatGPT sign-in (tokens.access_token)", CODEX) };
  }
  const idToken = toText(tokens?.id_token ?? tokens?.idToken)?.trim() || null;
  const access = claimsOf(accessToken);
  const accountId =
    toText(tokens?.account_id ?? tokens?.accountId ?? body.account_id)?.trim() ||
    accountIdOf(claimsOf(idToken)) ||
    accountIdOf(access) ||
    null;
  const exp = typeof access?.exp === "number" && Number.isFinite(access.exp) ? access.exp * 1000 : null;
  return { accessToken, accountId, idToken, expiresAtMs: exp };
}

/** A token's claims, unverified (read only for the account id, the expiry and the email); null when it is no JWT. */
const claimsOf = (token: string | null) => (token === null ? null : jwtClaims(token));

const AUTH_CLAIM = "https://api.openai.com/auth";
const PROFILE_CLAIM = "https://api.openai.com/profile";

function accountIdOf(claims: Record<string, unknown> | null): string | null {
  if (claims === null) return null;
  const auth = isObject(claims[AUTH_CLAIM]) ? claims[AUTH_CLAIM] : {};
  return toText(claims.chatgpt_account_id)?.trim() || toText(auth.chatgpt_account_id)?.trim() || null;
}

/** The signed-in account's email, from the id token's claims. */
export function emailOf(idToken: string | null): string | null {
  const claims = claimsOf(idToken);
  if (claims === null) return null;
  const profile = isObject(claims[PROFILE_CLAIM]) ? claims[PROFILE_CLAIM] : {};
  return shownEmail(toText(claims.email) ?? toText(profile.email));
}

/** An email fit to show (it tells accounts apart); anything else is left out. */
export function shownEmail(value: unknown): string | null {
  const email = toText(value);
  return email !== null && email.includes("@") && email.length <= 320 ? email : null;
}

/** The plan the id token names (`chatgpt_plan_type`), used when the usage answer names none. */
export function planClaimOf(idToken: string | null): string | null {
  const claims = claimsOf(idToken);
  if (claims === null) return null;
  const auth = isObject(claims[AUTH_CLAIM]) ? claims[AUTH_CLAIM] : {};
  return toText(auth.chatgpt_plan_type)?.trim() || toText(claims.chatgpt_plan_type)?.trim() || null;
}

function apiKeyOnly(path: string): QuotabarError {
  return new QuotabarError(
    "not_configured",
    `Codex is signed in with an API key (${path}): an API key has no ChatGPT plan, so there is no Codex quota to show.`,
    {
      remedies: [advice("Sign in to Codex with ChatGPT (`codex login`) to see the plan's limits; API usage is billed per token instead.")],
    },
  );
}
