import type { CredentialSource } from "../../ports/credential-source.js";
import type { FetchContext } from "../../ports/fetch-context.js";
import { normalizeCookieHeader } from "../browser/cookie-header.js";
import { credentialChain } from "../credential-chain.js";
import { cleanSecret } from "./api-key-credential.js";

/** A web session: the cookie header, plus the Bearer token and group id when the paste carried them. */
export interface MiniMaxWebSession {
  cookieHeader: string;
  bearer: string | null;
  groupId: string | null;
}

/** A pasted cookie header or "Copy as cURL" command (reference section 4.2). */
export function minimaxSessionFromPaste(text: string): MiniMaxWebSession | null {
  const cookieHeader = normalizeCookieHeader(text);
  if (cookieHeader === null || !cookieHeader.includes("=")) return null;
  return {
    cookieHeader,
    bearer: /\bauthorization:\s*bearer\s+([A-Za-z0-9._\-+=/]+)/i.exec(text)?.[1] ?? null,
    groupId: /\bgroup_?id=([0-9]{4,})/i.exec(text)?.[1] ?? null,
  };
}

const pasted = (read: (context: FetchContext) => unknown): CredentialSource<MiniMaxWebSession> => ({
  async resolve(context) {
    const text = cleanSecret(read(context));
    return text === null ? null : minimaxSessionFromPaste(text);
  },
});

/**
 * Manual cookie sources, config first (contract: config before environment). The spec's other web
 * sources (cached header, browser import, Chromium local-storage token) slot into this list later.
 */
export const MINIMAX_MANUAL_COOKIE_SOURCES: readonly CredentialSource<MiniMaxWebSession>[] = [
  pasted((c) => (c.entry.cookieSource === "off" ? null : c.entry.cookieHeader)),
  pasted((c) => c.env.MINIMAX_COOKIE),
  pasted((c) => c.env.MINIMAX_COOKIE_HEADER),
];

export const minimaxManualCookie = (sources = MINIMAX_MANUAL_COOKIE_SOURCES) => credentialChain(sources);
