import { QuotabarError } from "../../domain/errors.js";
import { advice } from "../../domain/remedy.js";
import { nestsDeeperThan } from "./bounded-json.js";
import { MAX_DEPTH } from "./search.js";
import { readTextIfPresent } from "./local-file.js";

/**
 * Another program's sign-in (Claude Code's `.credentials.json`, Codex's `auth.json`): READ ONLY.
 * Its refresh tokens rotate, so one use outside that program signs the user out of it: this module
 * reads, checks and reports, and has no way to write or refresh. When the token is stale, the
 * program itself (run once) refreshes it.
 */
export interface VendorSignIn {
  /** Who wrote it, for messages ("Claude Code"). */
  vendor: string;
  /** What the user runs to refresh it ("claude"). */
  command: string;
}

/** Far more than any sign-in file: a larger one is refused unread. */
export const MAX_SIGN_IN_BYTES = 256 * 1024;

/**
 * The JSON of a sign-in file, null when it does not exist. Anything else that is wrong (a
 * directory, a FIFO, too large, not JSON, nested absurdly deep) is an error naming the file, never
 * quoting it. `where` names it in messages (`~/.claude/.credentials.json`).
 */
export async function readSignInFile(path: string, where: string, signIn: VendorSignIn): Promise<unknown> {
  let text: string | null;
  try {
    text = await readTextIfPresent(path, MAX_SIGN_IN_BYTES);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem =
      code === "EISDIR"
        ? "is a directory"
        : code === "EFBIG"
          ? "is too large to be a sign-in file"
          : code === "ENOTREG"
            ? "is not a regular file"
            : "cannot be read";
    throw unusable(where, problem, signIn);
  }
  return text === null ? null : parseSignIn(text, where, signIn);
}

/**
 * Sign-in JSON as a file or a keychain item holds it: JSON, or JSON as hex-encoded UTF-8 (macOS
 * `security -w` prints an item with newlines that way), optionally `0x`-prefixed.
 */
export function parseSignIn(text: string, where: string, signIn: VendorSignIn): unknown {
  const trimmed = text.trim();
  const hex = /^(?:0x)?((?:[0-9a-fA-F]{2})+)$/.exec(trimmed)?.[1];
  const json = hex && !/^\d+$/.test(trimmed) ? Buffer.from(hex, "hex").toString("utf8") : trimmed;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw unusable(where, "is not JSON", signIn);
  }
  if (nestsDeeperThan(value, MAX_DEPTH)) throw unusable(where, "is nested too deeply to be a sign-in file", signIn);
  return value;
}

/** A sign-in that cannot be used as it is; `problem` completes "<where> ..." ("has no access token"). */
export function unusable(where: string, problem: string, signIn: VendorSignIn): QuotabarError {
  return new QuotabarError("not_configured", `${signIn.vendor}'s sign-in ${where} ${problem}`, {
    remedies: [advice(`Run \`${signIn.command}\` and sign in again; quotabar only reads that file, it never writes it.`)],
  });
}

/** The hint every refused or expired sign-in carries: the vendor's program refreshes its own token. */
export function refreshByRunning(signIn: VendorSignIn): ReturnType<typeof advice> {
  return advice(`Run \`${signIn.command}\` once: it refreshes its own sign-in, which quotabar reads but never refreshes or writes.`);
}

/** An `expired` error when the token's expiry (epoch ms) has passed; null while it is still good or when it has none. */
export function expiredSignIn(expiresAtMs: number | null, now: Date, where: string, signIn: VendorSignIn): QuotabarError | null {
  if (expiresAtMs === null || !Number.isFinite(expiresAtMs) || expiresAtMs > now.getTime()) return null;
  return new QuotabarError("expired", `${signIn.vendor}'s sign-in ${where} expired at ${new Date(expiresAtMs).toISOString()}`, {
    remedies: [refreshByRunning(signIn)],
  });
}

/**
 * The first 8 hex digits of SHA-256 of `text` (NFC): how a vendor CLI names its keychain item after
 * its config directory (Claude Code's `Claude Code-credentials-<hash>`). node:crypto loads only here.
 */
export async function shortHash(text: string): Promise<string> {
  const { createHash } = await import("node:crypto");
  return createHash("sha256").update(text.normalize("NFC")).digest("hex").slice(0, 8);
}
