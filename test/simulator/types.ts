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
  /** Wait before answering (the `slow` scenario). */
  delayMs?: number;
}

export interface SimRoute {
  method: "GET" | "POST";
  path: string | RegExp;
  handle(request: SimRequest, scenario: string): SimReply | Promise<SimReply>;
}

/** One upstream service as the simulator plays it. */
export interface SimProvider {
  id: string;
  /** Real origins this provider's requests go to. */
  origins: readonly string[];
  /** Credentials the simulator accepts, as the environment would carry them (for demo and tests). */
  env: Readonly<Record<string, string>>;
  /** Scenario names this provider understands; the first is the default. */
  scenarios: readonly string[];
  routes: readonly SimRoute[];
}

/** Common scenarios every provider offers. */
export const SLOW_MS = 60_000;
