import type { HttpTransport, ProviderHttp } from "../ports/http-client.js";
import { budgetExceeded, QuotabarError } from "./errors.js";
import { statusRule } from "./http-status-errors.js";
import { redactedExcerpt } from "./redact.js";

export interface HttpScope {
  /** Who is called, for messages ("Warp API error: HTTP 500"). */
  service: string;
  signal: AbortSignal;
  /** When the budget runs out (epoch ms) and how long it was. */
  deadline: number;
  budgetMs: number;
  /** Values never to print: the credential of this fetch. */
  secrets: readonly string[];
  nowMs?: () => number;
}

/**
 * The client a strategy is handed: every request carries the fetch's signal and what is left of
 * its budget, and a status it did not accept becomes the error of the status table.
 */
export function scopedHttp(transport: HttpTransport, scope: HttpScope): ProviderHttp {
  const now = scope.nowMs ?? Date.now;
  return {
    signal: scope.signal,
    excerpt: (text, options) => redactedExcerpt(text, scope.secrets, options),
    async request(request) {
      const left = scope.deadline - now();
      const service = request.service ?? scope.service;
      if (left <= 0 || scope.signal.aborted) throw budgetExceeded(scope.service, scope.budgetMs);
      const ownBudget = request.timeoutMs !== undefined && request.timeoutMs < left;
      let response;
      try {
        response = await transport.send({
          ...request,
          service,
          secrets: scope.secrets,
          signal: scope.signal,
          timeoutMs: ownBudget ? (request.timeoutMs as number) : left,
        });
      } catch (error) {
        // the provider's budget ran out: say so once, in the runner's words
        if (error instanceof QuotabarError && error.code === "timeout" && !ownBudget) throw budgetExceeded(scope.service, scope.budgetMs);
        throw error;
      }
      if (response.status >= 200 && response.status < 300) return response;
      const rule = statusRule(response.status, request.statusRules);
      if (rule === "pass") return response;
      throw rule(response, service);
    },
  };
}

/** Every string inside a credential (a key, a cookie header, tokens of a session object): the secrets to redact. */
export function secretsOf(credential: unknown, depth = 0): string[] {
  if (typeof credential === "string") {
    if (credential.length < 4) return [];
    // a Cookie header: each cookie value is a secret on its own too
    const values = credential.includes("=") ? credential.split(";").map((pair) => pair.slice(pair.indexOf("=") + 1).trim()) : [];
    return [credential, ...values.filter((value) => value.length >= 8)];
  }
  if (depth > 4 || credential === null || typeof credential !== "object") return [];
  return Object.values(credential).flatMap((value) => secretsOf(value, depth + 1));
}
