import { createHash, timingSafeEqual } from "node:crypto";
import { readFile } from "node:fs/promises";

/** A token shorter than this could be guessed by anyone who can reach the port. */
export const MIN_TOKEN_LENGTH = 16;

/** Why a token cannot be used (exit 2). */
export class TokenError extends Error {
  override name = "TokenError";
}

/**
 * The bearer token `quotabar serve` requires: the file's content (`--token <file>`, trailing
 * newline dropped), else QUOTABAR_SERVE_TOKEN; null when neither is given.
 */
export async function readServeToken(file: string | undefined, env: Record<string, string | undefined>): Promise<string | null> {
  let token: string;
  if (file !== undefined) {
    try {
      token = (await readFile(file, "utf8")).trim();
    } catch (error) {
      throw new TokenError(`Cannot read the token file ${file}: ${(error as NodeJS.ErrnoException).code ?? "unreadable"}`);
    }
  } else if (env.QUOTABAR_SERVE_TOKEN !== undefined && env.QUOTABAR_SERVE_TOKEN !== "") {
    token = env.QUOTABAR_SERVE_TOKEN.trim();
  } else return null;
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new TokenError(`The token must be at least ${MIN_TOKEN_LENGTH} characters without spaces (openssl rand -hex 32 makes one).`);
  }
  return token;
}

/** Whether an Authorization header carries the token, compared in constant time (digests of equal length). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer +(\S+)$/i.exec(header?.trim() ?? "")?.[1] ?? "";
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}
