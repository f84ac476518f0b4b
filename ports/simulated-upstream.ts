import type { IncomingHttpHeaders } from "node:http";

export interface SimRequest {
  method: string;
  /** Path below the upstream origin, e.g. `/api/v1/credits`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface SimReply {
  status?: number;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
  /** Wait before answering. */
  delayMs?: number;
  /** The moment this answer's times describe (ISO), when it is not its upstream's `recordedAt`. */
  recordedAt?: string;
}

export interface SimRoute {
  method: "GET" | "POST";
  path: string | RegExp;
  handle(request: SimRequest, scenario: string): SimReply | Promise<SimReply>;
  /** For a route another upstream on the same host also serves: whether this request is its own (e.g. by OAuth client). */
  accepts?(request: SimRequest): boolean;
}

/** One upstream service as the simulator plays it (`quotabar demo`, the tests, the Raycast preview). */
export interface SimulatedUpstream {
  id: string;
  /** Real origins this upstream's requests go to. */
  origins: readonly string[];
  /** Credentials the simulator accepts, as the environment would carry them. */
  env: Readonly<Record<string, string>>;
  /** Scenario names it understands; the first is the default. Every upstream also has `slow` and `upstream_500`. */
  scenarios: readonly string[];
  routes: readonly SimRoute[];
  /**
   * The moment its fixtures describe (ISO), as if they had been fetched then. In the demo and the
   * preview every time in its answers moves by exactly now - recordedAt, so windows, resets and ages
   * read as they did when recorded; tests serve the fixtures verbatim. Without it, past times move
   * forward by whole days (which can break a window shorter than a day).
   */
  recordedAt?: string;
  /**
   * For a provider read from local things (an IDE's files, a vendor CLI): lay them out under a
   * throwaway home for the scenario. `dates` moves fixture times to around now.
   */
  seedHome?(home: string, scenario: string, dates: FixtureDates): Promise<void>;
}

/**
 * Moves the times in a fixture's text as the simulator moves its answers' (the identity when it
 * serves fixtures verbatim): ISO times, epoch milliseconds and seconds, and quoted `"YYYY-MM-DD"`
 * days (by whole calendar days). `recordedAt` overrides the upstream's for this text.
 */
export type FixtureDates = (text: string, recordedAt?: string) => string;
