import { QuotabarError } from "../../domain/errors.js";
import type { Remedy } from "../../domain/remedy.js";
import type { CredentialSource } from "../../ports/credential-source.js";
import type { CredentialContext } from "../../ports/fetch-context.js";
import type { StatusRules } from "../../ports/http-client.js";
import { cookiePairs, normalizeCookieHeader } from "./cookie-header.js";
import { cleanSecret, fromEnv } from "./credentials.js";

/** How a web service's session cookie is recognised, and whether its other cookies go along. */
export interface SessionCookieRule {
  isSession: (name: string) => boolean;
  /** Send only the session cookies (the service needs nothing else), or the whole header. */
  sendOnlySession: boolean;
}

/** A Cookie header from `source`, kept only when it carries a session cookie; null otherwise, so the next source is tried. */
export function withSessionCookie(source: CredentialSource<string>, rule: SessionCookieRule): CredentialSource<string> {
  return {
    async resolve(context) {
      const header = await source.resolve(context);
      return header === null ? null : sessionCookieHeader(header, rule);
    },
  };
}

/** The header to send, or null when no cookie of it is a session cookie. */
export function sessionCookieHeader(header: string, rule: SessionCookieRule): string | null {
  const pairs = cookiePairs(header);
  const sessions = pairs.filter((pair) => rule.isSession(pair.name) && pair.value !== "");
  if (sessions.length === 0) return null;
  return (rule.sendOnlySession ? sessions : pairs).map((pair) => `${pair.name}=${pair.value}`).join("; ");
}

/**
 * Whether a cookie header was pasted at all (config `cookieHeader` unless `cookieSource` is off, or
 * one of the variables), read as `manualCookieHeader` reads it: for an error that tells "nothing
 * pasted" from "pasted without a session cookie".
 */
export function cookieHeaderPasted(context: CredentialContext, envNames: readonly string[]): boolean {
  const fromConfig = context.entry.cookieSource === "off" ? null : cleanSecret(context.entry.cookieHeader);
  return normalizeCookieHeader(fromConfig ?? fromEnv(context, envNames)) !== null;
}

export type SessionRefusal = ReturnType<typeof sessionRefusal>;

/** A session the service no longer takes: its error (with the response's status, when one said so) and the 401 / 403 rows that raise it. */
export function sessionRefusal(code: "expired" | "unauthorized", message: string, remedies: readonly Remedy[]) {
  const error = (status?: number) => new QuotabarError(code, message, { remedies, ...(status === undefined ? {} : { status }) });
  const statusRules: StatusRules = { 401: (response) => error(response.status), 403: (response) => error(response.status) };
  return { error, statusRules };
}
