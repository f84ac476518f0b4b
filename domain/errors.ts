import type { Remedy, RemedyWriter } from "./remedy.js";
import type { ErrorCode, UsageError } from "./usage-document.js";

/**
 * The one error type that crosses the hexagon: a code of the taxonomy, a message for people, and
 * what the user can do as structured remedies (the driver words them). Adapters throw it; the
 * UsageService turns it into data.
 */
export class QuotabarError extends Error {
  readonly code: ErrorCode;
  remedies: readonly Remedy[];
  /** Upstream HTTP status, when the error came from a response. */
  readonly status: number | undefined;
  /** Seconds the upstream asked us to wait (429 Retry-After). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { remedies?: readonly Remedy[]; status?: number; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "QuotabarError";
    this.code = code;
    this.remedies = options.remedies ?? [];
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** Replace what the user is told to do (a provider knows better than the generic table). */
  withRemedies(...remedies: Remedy[]): this {
    this.remedies = remedies;
    return this;
  }

  toUsageError(write: RemedyWriter): UsageError {
    return { code: this.code, message: this.message, hint: write(this.remedies) };
  }
}

/** Anything thrown becomes a QuotabarError; unknown throwables are reported as upstream failures. */
export function asQuotabarError(error: unknown): QuotabarError {
  if (error instanceof QuotabarError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new QuotabarError("upstream", message, { cause: error });
}

export const notConfigured = (message: string, ...remedies: Remedy[]) => new QuotabarError("not_configured", message, { remedies });
export const parseError = (message: string, ...remedies: Remedy[]) => new QuotabarError("parse", message, { remedies });

/** The one wording of a spent time budget, whoever notices it first (the runner or the HTTP layer). */
export function budgetExceeded(service: string, budgetMs: number): QuotabarError {
  const seconds = Math.round(budgetMs / 100) / 10;
  return new QuotabarError("timeout", `${service} did not answer within ${seconds} s`, {
    remedies: [{ kind: "advice", text: "The service may be slow or unreachable; try again." }, { kind: "raise-timeout" }],
  });
}
