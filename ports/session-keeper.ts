import type { CredentialContext, FetchContext } from "./fetch-context.js";

/** A web session as a keepalive finds it: the Cookie header to send and when its first cookie expires. */
export interface KeptSession {
  header: string;
  /** The earliest expiry among its cookies (absolute UTC); null when none has one (session cookies, a pasted header). */
  expiresAt: string | null;
  /** Where it was found: a renewed header that came from a browser or the cache is written back to the cache. */
  origin: "pasted" | "browser" | "cache";
}

/** What one renewal request achieved. */
export type PingOutcome = "renewed" | "expired" | "no-data";

/**
 * A provider's web session kept alive between fetches (ProviderModule.keepalive): where its cookies
 * are, and the cheap request that renews it. The timing is the domain's (domain/session-keepalive.ts).
 */
export interface SessionKeeper {
  /** Where the user signs in again once the keepalive gives up. */
  signInUrl: string;
  /** The session's cookies now, read afresh (no network); null when there is none to keep. */
  session(context: CredentialContext): Promise<KeptSession | null>;
  /** One renewal, through the scoped client (its budget, its signal, the header redacted). */
  ping(session: KeptSession, context: FetchContext): Promise<PingOutcome>;
}
