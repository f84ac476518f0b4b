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
}

export interface SimRoute {
  method: "GET" | "POST";
  path: string | RegExp;
  handle(request: SimRequest, scenario: string): SimReply | Promise<SimReply>;
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
   * For a provider read from local things (an IDE's files, a vendor CLI): lay them out under a
   * throwaway home for the scenario. `dates` moves fixture times to around now.
   */
  seedHome?(home: string, scenario: string, dates: (text: string) => string): Promise<void>;
}
