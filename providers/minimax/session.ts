import { cleanSecret, firstFound, normalizeCookieHeader, type CredentialContext, type CredentialSource } from "../kit/index.js";

/** A web session: the cookie header, plus the Bearer token and group id when the paste carried them. */
export interface MiniMaxWebSession {
  cookieHeader: string;
  bearer: string | null;
  groupId: string | null;
}

/**
 * One session the web route tries, and where it came from: `cached` (dropped when refused), or the
 * browser profile it was read from ("chrome/Default", kept in the cache once it works); neither for a paste.
 */
export interface MiniMaxAttempt {
  session: MiniMaxWebSession;
  cached: boolean;
  profile: string | null;
}

/** A pasted cookie header or "Copy as cURL" command; the cURL form also carries the web app's token and group. */
export function minimaxSessionFromPaste(text: string): MiniMaxWebSession | null {
  const cookieHeader = normalizeCookieHeader(text);
  if (cookieHeader === null || !cookieHeader.includes("=")) return null;
  return {
    cookieHeader,
    bearer: /\bauthorization:\s*bearer\s+([A-Za-z0-9._\-+=/]+)/i.exec(text)?.[1] ?? null,
    groupId: /\bgroup_?id=([0-9]{4,})/i.exec(text)?.[1] ?? null,
  };
}

// the raw paste, not the normalised header: the Bearer token and group id live outside the Cookie part
const pasted = (read: (context: CredentialContext) => unknown): CredentialSource<MiniMaxWebSession> => ({
  async resolve(context) {
    const text = cleanSecret(read(context));
    return text === null ? null : minimaxSessionFromPaste(text);
  },
});

/** The manual header: config first (unless cookieSource is off), then the variables. */
export const pastedMiniMaxSession = firstFound([
  pasted((c) => (c.entry.cookieSource === "off" ? null : c.entry.cookieHeader)),
  pasted((c) => c.env.MINIMAX_COOKIE),
  pasted((c) => c.env.MINIMAX_COOKIE_HEADER),
]);
